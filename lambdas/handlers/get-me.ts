import { routeById } from '../../contract/routes';
import { getOrCreateAccount } from '../app/get-account';
import { dynamoAccountStore } from '../adapters/dynamodb-accounts';
import { dynamo } from '../adapters/aws-clients';
import { config } from '../config';
import { userRoute } from './http';

const route = routeById('me');
const deps = { accounts: dynamoAccountStore(dynamo(), config().TABLE_NAME), now: () => new Date() };

export const handler = userRoute(route, async (_req, identity) => {
  const account = await getOrCreateAccount(deps, identity);
  return { body: account };
});
