import { BatchGetCommand, BatchWriteCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import type { AccountData, UserData } from '../ports/account-data';
import { keys } from '../domain/keys';
import { transactIf } from './update-if';

/** Ledger reasons whose `ref` is a job id. */
const JOB_REASONS = new Set(['image', 'video', 'refund']);
const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);
/** BatchWriteItem and BatchGetItem take at most 25 and 100 keys. */
const WRITE_BATCH = 25;
const GET_BATCH = 100;

type Key = { pk: string; sk: string };

const chunks = <T>(xs: readonly T[], n: number) => Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));

export function dynamoAccountData(db: DynamoDBDocumentClient, table: string): AccountData {
  /** Deletes keys 25 at a time, sending again what DynamoDB left unprocessed. */
  async function deleteKeys(all: readonly Key[]): Promise<void> {
    for (const batch of chunks(all, WRITE_BATCH)) {
      let request: Record<string, Array<{ DeleteRequest: { Key: Key } }>> | undefined = {
        [table]: batch.map((Key) => ({ DeleteRequest: { Key } })),
      };
      for (let attempt = 0; request && Object.keys(request).length; attempt++) {
        if (attempt > 8) throw new Error('BatchWriteItem left keys unprocessed');
        if (attempt) await new Promise((r) => setTimeout(r, 50 * 2 ** attempt));
        const res = await db.send(new BatchWriteCommand({ RequestItems: request }));
        request = res.UnprocessedItems as typeof request;
      }
    }
  }

  return {
    async collect(sub) {
      const data: UserData = { userItems: [], jobIds: [], orderIds: [], shareTokens: [], connectionIds: [] };
      let after: Record<string, unknown> | undefined;
      do {
        const res = await db.send(
          new QueryCommand({ TableName: table, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': keys.user(sub) }, ExclusiveStartKey: after }),
        );
        for (const r of res.Items ?? []) {
          const sk = String(r.sk);
          data.userItems.push(sk);
          if (r.type === 'ledger' && JOB_REASONS.has(String(r.reason)) && typeof r.ref === 'string') data.jobIds.push(r.ref);
          if (r.type === 'media' && typeof r.jobId === 'string') data.jobIds.push(r.jobId);
          if (r.type === 'media' && typeof r.shareToken === 'string') data.shareTokens.push(r.shareToken);
          if (r.type === 'payment' && typeof r.orderId === 'string') data.orderIds.push(r.orderId);
          if (sk.startsWith(keys.connection(''))) data.connectionIds.push(sk.slice(keys.connection('').length));
        }
        after = res.LastEvaluatedKey;
      } while (after);
      data.jobIds = [...new Set(data.jobIds)];
      return data;
    },

    async countOpenJobs(jobIds) {
      let open = 0;
      for (const batch of chunks(jobIds, GET_BATCH)) {
        let request: Record<string, { Keys: Key[]; ConsistentRead: boolean; ProjectionExpression: string; ExpressionAttributeNames: Record<string, string> }> | undefined = {
          [table]: { Keys: batch.map((id) => ({ pk: keys.job(id), sk: 'JOB' })), ConsistentRead: true, ProjectionExpression: '#s', ExpressionAttributeNames: { '#s': 'status' } },
        };
        for (let attempt = 0; request && Object.keys(request).length; attempt++) {
          if (attempt > 8) throw new Error('BatchGetItem left keys unprocessed');
          const res = await db.send(new BatchGetCommand({ RequestItems: request }));
          open += (res.Responses?.[table] ?? []).filter((j) => !TERMINAL.has(String(j.status))).length;
          request = res.UnprocessedKeys as typeof request;
        }
      }
      return open;
    },

    async markDeleting(sub) {
      try {
        await db.send(
          new UpdateCommand({
            TableName: table,
            Key: { pk: keys.user(sub), sk: keys.account },
            // An account not made yet is made here, marked and empty (its balance 0, no ledger row): a first call
            // racing the deletion then finds it and cannot charge it.
            UpdateExpression: 'SET deleting = :t, credits = if_not_exists(credits, :zero), #type = if_not_exists(#type, :account)',
            ConditionExpression: 'attribute_not_exists(activeJobs) OR activeJobs = :zero',
            ExpressionAttributeNames: { '#type': 'type' },
            ExpressionAttributeValues: { ':t': true, ':zero': 0, ':account': 'account' },
          }),
        );
        return true;
      } catch (err) {
        if (err instanceof ConditionalCheckFailedException) return false;
        throw err;
      }
    },

    async erase(sub, data, tombstoneTtl) {
      // Orders first: they are kept, without the user, for accounting.
      for (const orderId of data.orderIds) {
        try {
          await db.send(
            new UpdateCommand({
              TableName: table,
              Key: { pk: keys.order(orderId), sk: 'ORDER' },
              UpdateExpression: 'SET ownerDeleted = :t REMOVE #owner, approvalUrl, returnPath',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeNames: { '#owner': 'owner' },
              ExpressionAttributeValues: { ':t': true },
            }),
          );
        } catch (err) {
          if (!(err instanceof ConditionalCheckFailedException)) throw err;
        }
      }
      await deleteKeys([
        ...data.shareTokens.map((t) => ({ pk: keys.share(t), sk: keys.shareItem })),
        ...data.connectionIds.map((id) => ({ pk: keys.connection(id), sk: keys.connectionOwner })),
        ...data.jobIds.map((id) => ({ pk: keys.job(id), sk: 'JOB' })),
        // The account last: until it goes, a repeated request still finds everything above.
        ...data.userItems.filter((sk) => sk !== keys.account).map((sk) => ({ pk: keys.user(sub), sk })),
      ]);
      // The account and the tombstone in one transaction: there is no moment without either, so a token issued
      // before the deletion can never make the account again (the creating transaction checks the tombstone). The
      // account is deleted whether `collect` saw it or not: a first sign-in racing the deletion may have just made it.
      // The tombstone holds the opaque sub alone.
      await transactIf(
        db,
        {
          TransactItems: [
            { Delete: { TableName: table, Key: { pk: keys.user(sub), sk: keys.account } } },
            { Put: { TableName: table, Item: { pk: keys.deletedAccount(sub), sk: keys.deletedItem, type: 'tombstone', ttl: tombstoneTtl } } },
          ],
        },
        'any',
      );
    },
  };
}
