import { GetCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Job, JobStatus, JobStore, MediaItem } from '../ports/jobs';
import { changeCredits } from './dynamodb-credits';
import { keys } from '../domain/keys';
import { transactIf, updateIf } from './update-if';

const OPEN = { ':pending': 'pending', ':starting': 'starting', ':processing': 'processing' };
const IS_OPEN = '#status IN (:pending, :starting, :processing)';

export function mediaRecord(m: MediaItem) {
  return {
    pk: keys.user(m.owner),
    sk: keys.media(m.createdAt, m.id),
    type: 'media',
    id: m.id,
    kind: m.type,
    key: m.key,
    prompt: m.prompt,
    model: m.model,
    options: m.options,
    createdAt: m.createdAt,
    jobId: m.jobId,
  };
}

export function dynamoJobStore(db: DynamoDBDocumentClient, table: string): JobStore {
  const jobKey = (id: string) => ({ pk: keys.job(id), sk: 'JOB' });

  return {
    async createCharged(job, expectedBalance) {
      const r = await changeCredits(db, table, {
        sub: job.owner,
        delta: -job.cost,
        reason: job.kind,
        ref: job.id,
        expectedBalance,
        with: [
          {
            Put: {
              TableName: table,
              Item: { ...jobKey(job.id), type: 'job', ...job },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      });
      if (r.ok) return { ok: true, balance: r.balance };
      if (r.why === 'insufficient') return { ok: false, balance: r.balance };
      throw new Error(`Job ${job.id} already exists`);
    },

    async get(id) {
      const res = await db.send(new GetCommand({ TableName: table, Key: jobKey(id), ConsistentRead: true }));
      if (!res.Item) return undefined;
      const { pk: _pk, sk: _sk, type: _type, ...job } = res.Item;
      return job as Job;
    },

    async markStarted(id, providerId, status) {
      await guardedUpdate('SET providerId = :pid, #status = :s', { ':pid': providerId, ':s': status }, id);
    },

    async markProgress(id, status: JobStatus) {
      await guardedUpdate('SET #status = :s', { ':s': status }, id);
    },

    async succeed(job, media) {
      // False when the job already ended (its condition, item 0): a webhook and a poll raced, and the other one stored the result.
      return transactIf(
        db,
        {
          TransactItems: [
            {
              Update: {
                TableName: table,
                Key: jobKey(job.id),
                UpdateExpression: 'SET #status = :done, mediaId = :mid, mediaKey = :mkey',
                ConditionExpression: IS_OPEN,
                ExpressionAttributeNames: { '#status': 'status' },
                ExpressionAttributeValues: { ...OPEN, ':done': 'succeeded', ':mid': media.id, ':mkey': media.key },
              },
            },
            { Put: { TableName: table, Item: mediaRecord(media), ConditionExpression: 'attribute_not_exists(pk)' } },
          ],
        },
        0,
      );
    },

    async failAndRefund(job, status, error) {
      const r = await changeCredits(db, table, {
        sub: job.owner,
        delta: job.cost,
        reason: 'refund',
        ref: job.id,
        with: [
          {
            Update: {
              TableName: table,
              Key: jobKey(job.id),
              UpdateExpression: 'SET #status = :s, #error = :e, refunded = :t',
              ConditionExpression: IS_OPEN,
              ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
              ExpressionAttributeValues: { ...OPEN, ':s': status, ':e': error, ':t': true },
            },
          },
        ],
      });
      return r.ok;
    },

    async claimPoll(id, now, intervalMs) {
      return updateIf(db, {
        TableName: table,
        Key: jobKey(id),
        UpdateExpression: 'SET polledAt = :now',
        ConditionExpression: `${IS_OPEN} AND (attribute_not_exists(polledAt) OR polledAt < :due)`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ...OPEN, ':now': now, ':due': now - intervalMs },
      });
    },
  };

  async function guardedUpdate(expr: string, values: Record<string, unknown>, id: string): Promise<void> {
    // Not made when the job already ended (a webhook or poll got there first): progress no longer matters.
    await updateIf(db, {
      TableName: table,
      Key: jobKey(id),
      UpdateExpression: expr,
      ConditionExpression: IS_OPEN,
      ExpressionAttributeNames: { '#status': 'status' },
      ExpressionAttributeValues: { ...OPEN, ...values },
    });
  }
}
