import { routeById } from '../../contract/routes';
import { checkHealth, type HealthReport } from '../app/check-health';
import { healthDeps } from '../wiring/deps';
import { publicRoute } from './http';

const route = routeById('health');

// The route is public: cache the report briefly so it cannot be used to hammer the dependencies.
let last: { at: number; report: HealthReport } | undefined;
const CACHE_MS = 5_000;

export const handler = publicRoute(route, async () => {
  if (!last || Date.now() - last.at > CACHE_MS) last = { at: Date.now(), report: await checkHealth(healthDeps()) };
  return { status: last.report.status === 'ok' ? 200 : 503, body: last.report };
});
