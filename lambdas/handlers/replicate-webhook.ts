import { routeById } from '../../contract/routes';
import { applyGenerationWebhook } from '../app/apply-generation-webhook';
import { applyGenerationWebhookDeps } from '../wiring/deps';
import { publicRoute } from './http';

const route = routeById('replicateWebhook');

/** Replicate's callbacks: verified, and idempotent by webhook-id (a redelivery changes nothing). */
export const handler = publicRoute(route, async (req) => ({
  body: await applyGenerationWebhook(applyGenerationWebhookDeps(), { headers: req.headers, rawBody: req.rawBody, query: req.rawQuery }),
}));
