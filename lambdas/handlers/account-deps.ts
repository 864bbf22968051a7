/** The account use case's ports, wired to the real adapters once per cold start. */
import { dynamo } from '../adapters/aws-clients';
import { dynamoAccountStore } from '../adapters/dynamodb-accounts';
import type { GetAccountDeps } from '../app/get-account';
import { config } from '../config';

export const accountDeps: GetAccountDeps = {
  accounts: dynamoAccountStore(dynamo(), config().TABLE_NAME),
  now: () => new Date(),
};
