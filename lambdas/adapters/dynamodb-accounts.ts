import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Account, AccountStore } from '../ports/accounts';
import { keys } from '../domain/keys';
import { readBalance } from './dynamodb-credits';
import { transactIf } from './update-if';

export function dynamoAccountStore(db: DynamoDBDocumentClient, table: string): AccountStore {
  return {
    async get(sub) {
      const res = await db.send(
        new GetCommand({ TableName: table, Key: { pk: keys.user(sub), sk: keys.account }, ConsistentRead: true }),
      );
      if (!res.Item) return undefined;
      const i = res.Item;
      return {
        sub,
        email: i.email,
        firstName: i.firstName,
        lastName: i.lastName,
        createdAt: i.createdAt,
        credits: i.credits,
      };
    },

    async balance(sub) {
      return (await readBalance(db, table, sub)) ?? 0;
    },

    async createWithWelcome(a: Account) {
      const pk = keys.user(a.sub);
      // False when the account's condition (item 0) failed: another first call won the race, and nothing was written by this one.
      return transactIf(
        db,
        {
          TransactItems: [
            {
              Put: {
                TableName: table,
                Item: {
                  pk,
                  sk: keys.account,
                  type: 'account',
                  email: a.email,
                  firstName: a.firstName,
                  lastName: a.lastName,
                  createdAt: a.createdAt,
                  credits: a.credits,
                },
                ConditionExpression: 'attribute_not_exists(pk)',
              },
            },
            {
              Put: {
                TableName: table,
                Item: {
                  pk,
                  sk: keys.ledger(a.createdAt, 'welcome'),
                  type: 'ledger',
                  delta: a.credits,
                  balance: a.credits,
                  reason: 'welcome',
                  ref: 'signup',
                  createdAt: a.createdAt,
                },
              },
            },
          ],
        },
        0,
      );
    },
  };
}
