import { routeById } from '../../contract/routes';
import { subscribe } from '../app/subscribe';
import { subscribeDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('createSubscription');

export const handler = userRoute(route, async (req, me) => ({ body: await subscribe(subscribeDeps(), me, req.body) }));
