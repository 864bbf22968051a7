/**
 * The money ports' contract (money.contract.ts) on the DynamoDB adapters, against the embedded stack's DynamoDB Local
 * (the node project's global setup starts it). Its accounts are its own, so it runs beside other files.
 */
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { dynamoAccountData } from '../../lambdas/adapters/dynamodb-account-data';
import { dynamoAccountStore } from '../../lambdas/adapters/dynamodb-accounts';
import { dynamoJobStore } from '../../lambdas/adapters/dynamodb-jobs';
import { dynamoLedgerHistory } from '../../lambdas/adapters/dynamodb-ledger';
import { dynamoOrderStore } from '../../lambdas/adapters/dynamodb-orders';
import { dynamoSubscriptionStore } from '../../lambdas/adapters/dynamodb-subscriptions';
import { checkInvariants } from '../support/invariants';
import { stackEnv } from '../support/users';
import { describeMoneyContract } from './money.contract';

describeMoneyContract('DynamoDB', () => {
  const db = dynamo();
  const table = stackEnv().TABLE_NAME!;
  const accountData = dynamoAccountData(db, table);
  return {
    accounts: dynamoAccountStore(db, table, async () => 'contract-test-welcome-key'),
    jobs: dynamoJobStore(db, table),
    orders: dynamoOrderStore(db, table),
    subscriptions: dynamoSubscriptionStore(db, table),
    ledger: dynamoLedgerHistory(db, table),
    markDeleting: (sub) => accountData.markDeleting(sub),
    async expectBooksBalanced(subs) {
      expect((await checkInvariants({ owners: subs })).problems).toEqual([]);
    },
  };
});
