import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { BatchGetCommand, GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Job, JobStatus, JobStore, MediaItem } from '../ports/jobs';
import { changeCredits, readBalance } from './dynamodb-credits';
import { RefundNotLanded } from '../domain/errors';
import { jobCharge, jobPartRefund, jobRefund } from '../domain/money-rules';
import { OPEN_JOB_SHARDS } from '../../contract/capacity';
import { IDEMPOTENCY_TTL_SECONDS } from '../../contract/idempotency';
import { keys } from '../domain/keys';
import { transactIf, updateIf } from './update-if';

const OPEN = { ':pending': 'pending', ':starting': 'starting', ':processing': 'processing' };
const IS_OPEN = '#status IN (:pending, :starting, :processing)';
/** Not a prediction of one of the clip's earlier segments (a late delivery of theirs is not the current one's). */
const NOT_PAST = 'NOT contains(pastProviderIds, :pid)';
/**
 * Every write that ends a job removes it from the open-jobs index in the same condition-guarded update (and from
 * gsi1, where jobs written before that index are).
 */
const LEAVE_OPEN_INDEX = 'REMOVE openpk, opensk, gsi1pk, gsi1sk';

/**
 * Where open jobs are listed, in turn: gsi1's OPEN_JOB (jobs written before the open-jobs index: whole items), then
 * every shard of the open-jobs index (keys only).
 */
const OPEN_PARTITIONS = [
  { index: 'gsi1', key: 'gsi1pk', value: keys.openJobs, whole: true },
  ...Array.from({ length: OPEN_JOB_SHARDS }, (_, n) => ({ index: 'open-jobs', key: 'openpk', value: keys.openJobShardN(n), whole: false })),
];

/** A job as stored, without the table's keys and index keys. */
function jobOf(item: Record<string, unknown>): Job {
  const { pk: _pk, sk: _sk, type: _type, gsi1pk: _g1, gsi1sk: _g2, openpk: _o1, opensk: _o2, ...job } = item;
  return job as unknown as Job;
}

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
    ...(m.width !== undefined ? { width: m.width, height: m.height } : {}),
    ...(m.durationSeconds !== undefined ? { durationSeconds: m.durationSeconds } : {}),
    ...(m.posterKey ? { posterKey: m.posterKey } : {}),
    ...(m.credits !== undefined ? { credits: m.credits } : {}),
  };
}

const DAY_SECONDS = 24 * 60 * 60;

/** A batch part's document path (`#batch` names the attribute: BATCH is one of DynamoDB's reserved words). */
function partPath(part: number): string {
  if (!Number.isInteger(part) || part < 0) throw new Error(`Not a batch part: ${part}`);
  return `#batch[${part}]`;
}

/** The job's place in its owner's running jobs given back, for a write that ends it without a credit change. */
function leaveQueue(table: string, job: Job) {
  if (!job.countsActive) return [];
  return [{ Update: { TableName: table, Key: { pk: keys.user(job.owner), sk: keys.account }, UpdateExpression: 'ADD activeJobs :minus', ExpressionAttributeValues: { ':minus': -1 } } }];
}

/** One more job on the owner's UTC day, below `cap`: the counter item expires two days after its day. */
function dailyCount(table: string, job: Job, cap: number) {
  const day = job.createdAt.slice(0, 10);
  return {
    Update: {
      TableName: table,
      Key: { pk: keys.user(job.owner), sk: keys.generationsOn(day) },
      UpdateExpression: 'SET #type = :type, #ttl = :ttl ADD jobs :one',
      ConditionExpression: 'attribute_not_exists(jobs) OR jobs < :cap',
      ExpressionAttributeNames: { '#type': 'type', '#ttl': 'ttl' },
      ExpressionAttributeValues: { ':type': 'generations', ':one': 1, ':cap': cap, ':ttl': Math.floor(Date.parse(day) / 1000) + 2 * DAY_SECONDS },
    },
  };
}

/** The guard of one job per request key: it exists only if the charge's transaction was made. */
function startGuard(table: string, job: Job, requestKey: string) {
  return {
    Put: {
      TableName: table,
      Item: { pk: keys.user(job.owner), sk: keys.startedBy(requestKey), type: 'started', jobId: job.id, ttl: Math.floor(Date.parse(job.createdAt) / 1000) + IDEMPOTENCY_TTL_SECONDS },
      ConditionExpression: 'attribute_not_exists(pk)',
    },
  };
}

export function dynamoJobStore(db: DynamoDBDocumentClient, table: string): JobStore {
  const jobKey = (id: string) => ({ pk: keys.job(id), sk: 'JOB' });

  /** The job a request key already started, if its charge was made. */
  async function startedBy(owner: string, requestKey: string): Promise<string | undefined> {
    const res = await db.send(new GetCommand({ TableName: table, Key: { pk: keys.user(owner), sk: keys.startedBy(requestKey) }, ConsistentRead: true }));
    return res.Item?.jobId as string | undefined;
  }

  return {
    async createCharged(job, expectedBalance, dailyCap, activeCap) {
      // First in `with`: when the request already started a job, its guard is the first condition that fails.
      const guard = job.requestKey ? [startGuard(table, job, job.requestKey)] : [];
      const r = await changeCredits(db, table, {
        sub: job.owner,
        ...jobCharge(job),
        ref: job.id,
        expectedBalance,
        notePlanCostOn: guard.length,
        ...(job.countsActive && activeCap !== undefined ? { activeJobs: { add: 1, cap: activeCap } as const } : {}),
        with: [
          ...guard,
          {
            Put: {
              TableName: table,
              // In the open-jobs index until a terminal write removes the keys.
              Item: { ...jobKey(job.id), type: 'job', ...job, openpk: keys.openJobShard(job.id), opensk: keys.openJob(job.createdAt, job.id) },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
          ...(dailyCap === undefined ? [] : [dailyCount(table, job, dailyCap)]),
        ],
      });
      if (r.ok) return { ok: true, balance: r.balance };
      // Whatever stopped this charge (the guard, or a balance or queue the first charge changed), a request that
      // already started its job is answered with that job.
      const started = job.requestKey ? await startedBy(job.owner, job.requestKey) : undefined;
      if (started) return { ok: false, started, balance: (await readBalance(db, table, job.owner)) ?? 0 };
      if (r.why === 'insufficient') return { ok: false, balance: r.balance };
      if (r.why === 'busy') return { ok: false, queueFull: true };
      if (r.why === 'closing' || r.why === 'no-account') return { ok: false, accountClosing: true };
      if (r.failed === guard.length + 1) return { ok: false, dailyCapReached: true };
      throw new Error(`Job ${job.id} already exists`);
    },

    async get(id) {
      const res = await db.send(new GetCommand({ TableName: table, Key: jobKey(id), ConsistentRead: true }));
      return res.Item ? jobOf(res.Item) : undefined;
    },

    async markStarted(id, providerId, status) {
      // Not over a provider id a webhook already recorded (nor its status, which may be further along).
      return updateIf(db, {
        TableName: table,
        Key: jobKey(id),
        // A queued job leaves the queue with its prediction.
        UpdateExpression: 'SET providerId = :pid, #status = :s REMOVE queued, queuedAt',
        ConditionExpression: `${IS_OPEN} AND attribute_not_exists(providerId) AND ${NOT_PAST}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ...OPEN, ':pid': providerId, ':s': status },
      });
    },

    async markQueued(id, request, at) {
      return updateIf(db, {
        TableName: table,
        Key: jobKey(id),
        UpdateExpression: 'SET queued = :req, queuedAt = if_not_exists(queuedAt, :at)',
        ConditionExpression: `${IS_OPEN} AND attribute_not_exists(providerId)`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ...OPEN, ':req': request, ':at': at },
      });
    },

    async recordOutput(id, providerId, urls, at) {
      const several = urls.length > 1;
      // A batch's parts carry their own prediction ids (recordPartOutput): the job records only the outputs.
      const ofPrediction = providerId !== undefined;
      return updateIf(db, {
        TableName: table,
        Key: jobKey(id),
        UpdateExpression: `SET outputUrl = :url, outputAt = :at, #status = :processing${ofPrediction ? ', providerId = if_not_exists(providerId, :pid)' : ''}${several ? ', outputUrls = :urls' : ''}`,
        ConditionExpression: `${IS_OPEN} AND attribute_not_exists(outputUrl)${ofPrediction ? ` AND (attribute_not_exists(providerId) OR providerId = :pid) AND ${NOT_PAST}` : ''}`,
        ExpressionAttributeNames: { '#status': 'status' },
        ExpressionAttributeValues: { ...OPEN, ':url': urls[0], ':at': at, ...(ofPrediction ? { ':pid': providerId } : {}), ...(several ? { ':urls': [...urls] } : {}) },
      });
    },

    async markPartStarted(id, part, providerId, status) {
      const at = partPath(part);
      return updateIf(db, {
        TableName: table,
        Key: jobKey(id),
        // A queued batch leaves the queue with its predictions.
        UpdateExpression: `SET ${at}.providerId = :pid, #status = :s REMOVE queued, queuedAt`,
        ConditionExpression: `${IS_OPEN} AND attribute_exists(${at}) AND attribute_not_exists(${at}.providerId)`,
        ExpressionAttributeNames: { '#status': 'status', '#batch': 'batch' },
        ExpressionAttributeValues: { ...OPEN, ':pid': providerId, ':s': status },
      });
    },

    async recordPartOutput(id, part, providerId, url) {
      const at = partPath(part);
      try {
        // The whole job as it is after: the caller sees whether this was the batch's last output.
        const res = await db.send(
          new UpdateCommand({
            TableName: table,
            Key: jobKey(id),
            UpdateExpression: `SET ${at}.outputUrl = :url, ${at}.providerId = if_not_exists(${at}.providerId, :pid)`,
            ConditionExpression: `${IS_OPEN} AND attribute_exists(${at}) AND attribute_not_exists(${at}.outputUrl) AND (attribute_not_exists(${at}.providerId) OR ${at}.providerId = :pid)`,
            ExpressionAttributeNames: { '#status': 'status', '#batch': 'batch' },
            ExpressionAttributeValues: { ...OPEN, ':pid': providerId, ':url': url },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return res.Attributes ? jobOf(res.Attributes) : undefined;
      } catch (err) {
        if (err instanceof ConditionalCheckFailedException) return undefined;
        throw err;
      }
    },

    async recordPartFailure(id, part, providerId, reason) {
      const at = partPath(part);
      try {
        const res = await db.send(
          new UpdateCommand({
            TableName: table,
            Key: jobKey(id),
            UpdateExpression: `SET ${at}.failed = :why, ${at}.providerId = if_not_exists(${at}.providerId, :pid)`,
            ConditionExpression: `${IS_OPEN} AND attribute_exists(${at}) AND attribute_not_exists(${at}.outputUrl) AND attribute_not_exists(${at}.failed) AND (attribute_not_exists(${at}.providerId) OR ${at}.providerId = :pid)`,
            ExpressionAttributeNames: { '#status': 'status', '#batch': 'batch' },
            ExpressionAttributeValues: { ...OPEN, ':pid': providerId, ':why': reason },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return res.Attributes ? jobOf(res.Attributes) : undefined;
      } catch (err) {
        if (err instanceof ConditionalCheckFailedException) return undefined;
        throw err;
      }
    },

    async listOpen(limit, cursor) {
      // One partition per call, oldest first within it; the cursor names the partition and the place in it.
      const at = cursor ? (JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8')) as { p: number; k?: Record<string, unknown> }) : { p: 0 };
      const part = OPEN_PARTITIONS[at.p];
      if (!part) return { items: [] };
      const res = await db.send(
        new QueryCommand({
          TableName: table,
          IndexName: part.index,
          KeyConditionExpression: '#key = :open',
          ExpressionAttributeNames: { '#key': part.key },
          ExpressionAttributeValues: { ':open': part.value },
          Limit: limit,
          ...(at.k ? { ExclusiveStartKey: at.k } : {}),
        }),
      );
      const found = (res.Items ?? []).filter((i) => String(i.pk).startsWith('JOB#'));
      const items = part.whole ? found.filter((i) => i.type === 'job').map(jobOf) : await readJobs(found.map((i) => ({ pk: i.pk, sk: i.sk })));
      const next = res.LastEvaluatedKey ? { p: at.p, k: res.LastEvaluatedKey } : at.p + 1 < OPEN_PARTITIONS.length ? { p: at.p + 1 } : undefined;
      return { items, ...(next ? { nextCursor: Buffer.from(JSON.stringify(next)).toString('base64url') } : {}) };
    },

    async markProgress(id, status: JobStatus) {
      await guardedUpdate('SET #status = :s', { ':s': status }, id);
    },

    async startSegment(job, segmentKey, at) {
      const current = job.segment ?? 1;
      return updateIf(db, {
        TableName: table,
        Key: jobKey(job.id),
        UpdateExpression:
          'SET #segment = :next, segmentAt = :at, segmentKeys = list_append(if_not_exists(segmentKeys, :none), :key), ' +
          'pastProviderIds = list_append(if_not_exists(pastProviderIds, :none), :pids) REMOVE outputUrl, outputUrls, outputAt, providerId, polledAt',
        ConditionExpression: `${IS_OPEN} AND outputUrl = :url AND providerId = :pid AND ${current === 1 ? 'attribute_not_exists(#segment)' : '#segment = :current'}`,
        // SEGMENT is one of DynamoDB's reserved words.
        ExpressionAttributeNames: { '#status': 'status', '#segment': 'segment' },
        ExpressionAttributeValues: {
          ...OPEN,
          ':next': current + 1,
          ':at': at,
          ':none': [],
          ':key': [segmentKey],
          ':pids': [job.providerId],
          ':url': job.outputUrl,
          ':pid': job.providerId,
          ...(current === 1 ? {} : { ':current': current }),
        },
      });
    },

    async succeed(job, media, partRefund) {
      const done = {
        Update: {
          TableName: table,
          Key: jobKey(job.id),
          UpdateExpression: `SET #status = :done, mediaId = :mid, mediaKey = :mkey${partRefund ? ', #error = :note' : ''} ${LEAVE_OPEN_INDEX}`,
          ConditionExpression: IS_OPEN,
          ExpressionAttributeNames: { '#status': 'status', ...(partRefund ? { '#error': 'error' } : {}) },
          ExpressionAttributeValues: {
            ...OPEN,
            ':done': 'succeeded',
            ':mid': media[0]!.id,
            ':mkey': media[0]!.key,
            ...(partRefund ? { ':note': partRefund.note } : {}),
          },
        },
      };
      const puts = media.map((m) => ({ Put: { TableName: table, Item: mediaRecord(m), ConditionExpression: 'attribute_not_exists(pk)' } }));
      if (partRefund) {
        // The failed parts' price back with the success, one transaction (domain/money-rules' jobPartRefund).
        const r = await changeCredits(db, table, {
          sub: job.owner,
          ...jobPartRefund(job, partRefund.credits),
          ref: job.id,
          ...(job.countsActive ? { activeJobs: { add: -1 } as const } : {}),
          with: [done, ...puts],
        });
        if (r.ok) return true;
        if (r.why === 'already-done') return false;
        throw new RefundNotLanded(job.id, r.why);
      }
      // False when the job already ended (its condition, item 0): a webhook and a poll raced, and the other one stored the result.
      return transactIf(db, { TransactItems: [done, ...puts, ...leaveQueue(table, job)] }, 0);
    },

    async failAndRefund(job, status, error) {
      return refundWith(job, ending(job, status, error, true, IS_OPEN));
    },

    async cancel(job, refund, error) {
      // Not once the provider's output is recorded: the job succeeded and is being saved (a cancel racing the
      // completion loses, and the success stands). The job's condition makes one of the two win, once.
      const end = ending(job, 'canceled', error, refund, `${IS_OPEN} AND attribute_not_exists(outputUrl)`);
      if (!refund) return transactIf(db, { TransactItems: [end, ...leaveQueue(table, job)] }, 0);
      return refundWith(job, end);
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

    async notePredictionCost(job, providerId, seconds, cents) {
      return updateIf(db, {
        TableName: table,
        Key: jobKey(job.id),
        UpdateExpression: 'SET costed = list_append(if_not_exists(costed, :none), :pid) ADD providerSeconds :s, providerCents :c',
        ConditionExpression: 'attribute_exists(pk) AND (attribute_not_exists(costed) OR NOT contains(costed, :id))',
        ExpressionAttributeValues: { ':none': [], ':pid': [providerId], ':id': providerId, ':s': seconds, ':c': cents },
      });
    },
  };

  /** The update that ends an open job (failed or canceled) with why, under `condition`. */
  function ending(job: Job, status: 'failed' | 'canceled', error: string, refunded: boolean, condition: string) {
    return {
      Update: {
        TableName: table,
        Key: jobKey(job.id),
        UpdateExpression: `SET #status = :s, #error = :e, refunded = :r ${LEAVE_OPEN_INDEX}`,
        ConditionExpression: condition,
        ExpressionAttributeNames: { '#status': 'status', '#error': 'error' },
        ExpressionAttributeValues: { ...OPEN, ':s': status, ':e': error, ':r': refunded },
      },
    };
  }

  /**
   * The job's cost back with its ending, in one transaction (and its place in the owner's running jobs). False only
   * when the job had already ended; a refund that could not land throws (RefundNotLanded), so no caller reports it.
   */
  async function refundWith(job: Job, end: ReturnType<typeof ending>): Promise<boolean> {
    const r = await changeCredits(db, table, {
      sub: job.owner,
      ...jobRefund(job),
      ref: job.id,
      ...(job.countsActive ? { activeJobs: { add: -1 } as const } : {}),
      with: [end],
    });
    if (r.ok) return true;
    if (r.why === 'already-done') return false;
    throw new RefundNotLanded(job.id, r.why);
  }

  /** The jobs at these keys, whole and current (the index is keys only), in the keys' order; ones gone are skipped. */
  async function readJobs(wanted: Record<string, unknown>[]): Promise<Job[]> {
    const byKey = new Map<string, Job>();
    let pending = wanted;
    for (let round = 0; pending.length && round < 5; round++) {
      const res = await db.send(new BatchGetCommand({ RequestItems: { [table]: { Keys: pending, ConsistentRead: true } } }));
      for (const item of res.Responses?.[table] ?? []) byKey.set(String(item.pk), jobOf(item));
      pending = (res.UnprocessedKeys?.[table]?.Keys ?? []) as Record<string, unknown>[];
    }
    return wanted.map((k) => byKey.get(String(k.pk))).filter((j): j is Job => j !== undefined);
  }

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
