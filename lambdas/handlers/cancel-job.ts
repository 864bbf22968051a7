import { routeById } from '../../contract/routes';
import { cancelJob } from '../app/cancel-job';
import { cancelJobDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('cancelJob');

export const handler = userRoute(route, async (req, me) => ({
  body: await cancelJob(cancelJobDeps(), me.sub, req.params.id ?? '', req.body.acceptCharge ?? false),
}));
