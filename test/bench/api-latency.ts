/**
 * Benchmark: latency of the API through the local gateway against one raw DynamoDB read, with 50
 * concurrent users on the embedded stack.
 *
 * - POST /api/generate-image: the whole start of a job (token check, account, the charge transaction, the
 *   provider's create call, the job update). The prompts carry the simulator's [fail] [nowebhook] markers, so the
 *   simulator renders nothing and sends no webhooks while we measure: in this one-process stack its PNG encoding
 *   and the webhook handler would otherwise compete for the same CPU, which they do not do in the cloud.
 * - GET /api/check-status/{id} on a finished job (the poll that returns the result: job, balance, media item and
 *   a presigned URL), each user polling its own job.
 * - GetItem: a consistent read of one ACCOUNT item with the same SDK client the handlers use.
 * - For context, one UpdateItem per call on a scratch item per user: DynamoDB Local's writes, not reads, bound
 *   generate-image (it makes two writes: the charge transaction and the job's provider id).
 *
 * Each phase runs 50 closed-loop workers (one per user) after an unmeasured warm-up round.
 */
import { BatchGetCommand, GetCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { keys } from '../../lambdas/domain/keys';
import { api, createUser, stackEnv, type TestUser } from '../support/users';
import { grantCredits, waitForStatus } from '../support/generation';
import { ms, summarize, table, type LatencySummary } from './stats';
import type { BenchContext, BenchSection } from './run';

const USERS = 50;
const GENERATIONS_PER_USER = 12; // 600 samples
const POLLS_PER_USER = 20; // 1000 samples
const READS_PER_USER = 20; // 1000 samples
const WRITES_PER_USER = 12; // 600 samples

async function inBatches<T>(n: number, size: number, fn: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = [];
  for (let i = 0; i < n; i += size) out.push(...(await Promise.all(Array.from({ length: Math.min(size, n - i) }, (_, k) => fn(i + k)))));
  return out;
}

/**
 * Runs `perWorker` timed calls in each of `workers` concurrent loops; returns every latency and the wall time. A call
 * may return an untimed step to run after it (e.g. ending the job it started).
 */
async function measure(workers: number, perWorker: number, call: (worker: number, i: number) => Promise<void | (() => Promise<unknown>)>) {
  const samples: number[] = [];
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: workers }, async (_, w) => {
      for (let i = 0; i < perWorker; i++) {
        const s = performance.now();
        const after = await call(w, i);
        samples.push(performance.now() - s);
        if (after) await after();
      }
    }),
  );
  return summarize(samples, performance.now() - t0);
}

async function ok(res: Promise<Response>, what: string): Promise<Record<string, unknown>> {
  const r = await res;
  const body = (await r.json()) as Record<string, unknown>;
  if (r.status !== 200) throw new Error(`${what}: ${r.status} ${JSON.stringify(body)}`);
  return body;
}

export const apiLatency: BenchSection = {
  title: 'API latency through the local gateway vs one DynamoDB GetItem (50 concurrent users)',
  async run(ctx: BenchContext) {
    await ctx.stack();
    const table_ = stackEnv().TABLE_NAME!;
    ctx.log(`creating ${USERS} users...`);
    const users: TestUser[] = await inBatches(USERS, 10, () => createUser());
    await Promise.all(users.map((u) => ok(api(u, '/api/me'), 'me')));
    // One real job each (also the warm-up of generate-image) plus the measured ones.
    await Promise.all(users.map((u) => grantCredits(u, 1 + GENERATIONS_PER_USER - 10)));

    ctx.log('warm-up: one real image per user...');
    const finished = await Promise.all(users.map(async (u, i) => String((await ok(api(u, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt: `warm-up ${i}` }) }), 'generate')).predictionId)));
    await Promise.all(users.map(async (u, i) => {
      const s = await waitForStatus(u, finished[i]!, ['succeeded', 'failed', 'canceled'], 120_000);
      if (s.status !== 'succeeded') throw new Error(`warm-up job ${finished[i]} ${s.status}`);
    }));
    const db = dynamo();
    const getAccount = (u: TestUser) => db.send(new GetCommand({ TableName: table_, Key: { pk: keys.user(u.sub), sk: keys.account }, ConsistentRead: true }));
    await Promise.all(users.map((u) => getAccount(u)));

    ctx.log(`measuring POST /api/generate-image (${USERS * GENERATIONS_PER_USER} requests)...`);
    const generate = await measure(USERS, GENERATIONS_PER_USER, async (w, i) => {
      const { predictionId } = await ok(api(users[w]!, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt: `bench ${w}-${i} [fail] [nowebhook]` }) }), 'generate');
      // Untimed: the job would stay open (no webhook) and a user may run only MAX_ACTIVE_JOBS at once. 409: it has
      // already ended (the simulator's failure was found by a poll).
      return async () => {
        const res = await api(users[w]!, `/api/jobs/${String(predictionId)}/cancel`, { method: 'POST', body: JSON.stringify({ acceptCharge: true }) });
        if (res.status !== 200 && res.status !== 409) throw new Error(`cancel: ${res.status} ${await res.text()}`);
      };
    });
    ctx.log(`measuring GET /api/check-status/{id} (${USERS * POLLS_PER_USER} requests)...`);
    const status = await measure(USERS, POLLS_PER_USER, async (w) => {
      const body = await ok(api(users[w]!, `/api/check-status/${finished[w]}`), 'check-status');
      if (body.status !== 'succeeded' || typeof body.imageUrl !== 'string') throw new Error(`unexpected status ${JSON.stringify(body)}`);
    });
    ctx.log(`measuring DynamoDB GetItem (${USERS * READS_PER_USER} reads)...`);
    const getItem = await measure(USERS, READS_PER_USER, async (w) => {
      const res = await getAccount(users[w]!);
      if (!res.Item) throw new Error('no account item');
    });
    // What check-status's one read costs by itself (the job and the balance in one BatchGetItem), so the rest of its
    // time (gateway, token check, handler, presigning) shows as the difference.
    ctx.log(`measuring DynamoDB BatchGetItem of job + account (${USERS * READS_PER_USER} reads)...`);
    const batchGet = await measure(USERS, READS_PER_USER, async (w) => {
      const u = users[w]!;
      const keys_ = [{ pk: keys.job(finished[w]!), sk: 'JOB' }, { pk: keys.user(u.sub), sk: keys.account }];
      const res = await db.send(new BatchGetCommand({ RequestItems: { [table_]: { Keys: keys_, ConsistentRead: true } } }));
      if ((res.Responses?.[table_] ?? []).length !== 2) throw new Error('BatchGetItem: not both items');
    });
    ctx.log(`measuring DynamoDB UpdateItem (${USERS * WRITES_PER_USER} writes)...`);
    const updateItem = await measure(USERS, WRITES_PER_USER, async (w, i) => {
      await db.send(
        new UpdateCommand({
          TableName: table_,
          Key: { pk: `BENCH#${users[w]!.sub}`, sk: 'SCRATCH' },
          UpdateExpression: 'SET n = :n',
          ExpressionAttributeValues: { ':n': i },
        }),
      );
    });

    const rows: [string, LatencySummary][] = [
      ['POST /api/generate-image', generate],
      ['GET /api/check-status/{id}', status],
      ['DynamoDB GetItem (consistent)', getItem],
      ['DynamoDB BatchGetItem job + account (context)', batchGet],
      ['DynamoDB UpdateItem (context)', updateItem],
    ];
    ctx.print(
      table(
        ['operation', 'samples', 'p50 ms', 'p99 ms', 'max ms', 'req/s', 'p50 / GetItem', 'p99 / GetItem'],
        rows.map(([name, s]) => [name, s.samples, ms(s.p50), ms(s.p99), ms(s.max), s.throughput.toFixed(0), `${(s.p50 / getItem.p50).toFixed(1)}x`, `${(s.p99 / getItem.p99).toFixed(1)}x`]),
      ),
    );
    return Object.fromEntries(rows.map(([name, s]) => [name, { ...s, p50Ratio: s.p50 / getItem.p50, p99Ratio: s.p99 / getItem.p99 }]));
  },
};
