import { routeById } from '../../contract/routes';
import { getSubscription } from '../app/get-subscription';
import { getSubscriptionDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('getSubscription');

export const handler = userRoute(route, async (_req, me) => ({ body: await getSubscription(getSubscriptionDeps(), me.sub) }));
