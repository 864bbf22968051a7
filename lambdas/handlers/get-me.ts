import { routeById } from '../../contract/routes';
import { getOrCreateAccount } from '../app/get-account';
import { accountDeps } from './account-deps';
import { userRoute } from './http';

const route = routeById('me');

export const handler = userRoute(route, async (_req, identity) => {
  const account = await getOrCreateAccount(accountDeps, identity);
  return { body: account };
});
