import { routeById } from '../../contract/routes';
import { changeSubscription } from '../app/change-subscription';
import { changeSubscriptionDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('changeSubscription');

export const handler = userRoute(route, async (req, me) => ({ body: await changeSubscription(changeSubscriptionDeps(), me.sub, req.body) }));
