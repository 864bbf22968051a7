import { routeById } from '../../contract/routes';
import { getOrCreateAccount } from '../app/get-or-create-account';
import { getAccountDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('me');

export const handler = userRoute(route, async (_req, me) => ({ body: await getOrCreateAccount(getAccountDeps(), me) }));
