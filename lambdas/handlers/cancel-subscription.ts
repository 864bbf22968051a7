import { routeById } from '../../contract/routes';
import { cancelSubscription } from '../app/cancel-subscription';
import { subscriptionDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('cancelSubscription');

export const handler = userRoute(route, async (_req, me) => ({ body: await cancelSubscription(subscriptionDeps(), me.sub) }));
