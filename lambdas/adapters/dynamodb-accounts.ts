import { GetCommand } from '@aws-sdk/lib-dynamodb';
import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Account, AccountStore } from '../ports/accounts';
import { emailHash } from '../domain/email-hash';
import { keys } from '../domain/keys';
import { readBalance } from './dynamodb-credits';
import { transactOrFailedChecks } from './update-if';

const tombstone = (sub: string) => ({ pk: keys.deletedAccount(sub), sk: keys.deletedItem });

/** `welcomeKey`: the secret the welcome mark's address hash is keyed with (WELCOME_HASH_KEY), read when an account is made. */
export function dynamoAccountStore(db: DynamoDBDocumentClient, table: string, welcomeKey: () => string): AccountStore {
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
        ...(i.deleting === true ? { deleting: true } : {}),
      };
    },

    async isDeleted(sub) {
      const res = await db.send(
        new GetCommand({ TableName: table, Key: tombstone(sub), ConsistentRead: true, ProjectionExpression: 'pk' }),
      );
      return res.Item !== undefined;
    },

    async balance(sub) {
      return (await readBalance(db, table, sub)) ?? 0;
    },

    async createWithWelcome(a: Account) {
      const pk = keys.user(a.sub);
      const account = (credits: number) => ({
        Put: {
          TableName: table,
          Item: { pk, sk: keys.account, type: 'account', email: a.email, firstName: a.firstName, lastName: a.lastName, createdAt: a.createdAt, credits },
          ConditionExpression: 'attribute_not_exists(pk)',
        },
      });
      // Atomically: a deletion's tombstone written a moment before this transaction refuses it.
      const notDeleted = { ConditionCheck: { TableName: table, Key: tombstone(a.sub), ConditionExpression: 'attribute_not_exists(pk)' } };
      const welcome = [
        notDeleted,
        account(a.credits),
        {
          Put: {
            TableName: table,
            Item: { pk, sk: keys.ledger(a.createdAt, 'welcome'), type: 'ledger', delta: a.credits, balance: a.credits, reason: 'welcome', ref: 'signup', createdAt: a.createdAt },
          },
        },
        // The address keeps this mark when its account is deleted, so signing up again gives no second welcome. It
        // holds no address and no user id: only the keyed hash of the address (domain/email-hash.ts).
        {
          Put: {
            TableName: table,
            Item: { pk: keys.welcome(emailHash(a.email, welcomeKey())), sk: 'WELCOME', type: 'welcome', createdAt: a.createdAt },
            ConditionExpression: 'attribute_not_exists(pk)',
          },
        },
      ];
      const first = await transactOrFailedChecks(db, { TransactItems: welcome });
      if (!first) return 'created';
      const [deleted, exists, , welcomed] = first.failed;
      if (deleted) return 'deleted';
      // Another first call won the race: nothing was written by this one.
      if (exists) return 'exists';
      if (!welcomed) throw first.error;
      // The address had its welcome credits already: the account alone, at 0.
      const second = await transactOrFailedChecks(db, { TransactItems: [notDeleted, account(0)] });
      if (!second) return 'no-welcome';
      if (second.failed[0]) return 'deleted';
      if (second.failed[1]) return 'exists'; // a racing first call made it
      throw second.error;
    },
  };
}
