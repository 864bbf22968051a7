import { routeById } from '../../contract/routes';
import { checkStatus } from '../app/generation';
import { generationDeps } from './generation-deps';
import { userRoute } from './http';

const route = routeById('checkStatus');

export const handler = userRoute(route, async (req, me) => ({
  body: await checkStatus(generationDeps, me.sub, req.params.predictionId ?? ''),
}));
