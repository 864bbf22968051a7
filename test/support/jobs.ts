/**
 * Settling jobs the way production does, without a browser: the stream functions (drained) and the reconciler
 * (run now), and the checks every fault test ends with: the job ended, the balance and ledger are exact, the
 * media item exists once or not at all.
 */
import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { jobItem, userItems } from './generation';
import { stackEnv, stackUrl, type TestUser } from './users';

const TERMINAL = ['succeeded', 'failed', 'canceled'];

export async function drainStreams(baseUrl = stackUrl()): Promise<void> {
  if (!(await drained(baseUrl))) throw new Error('drain: 500 (the stream functions did not catch up within 30 s)');
}

/**
 * Whether the stream functions caught up with every change made so far within the stack's 30 s (500 when not). The
 * stream is one queue for the whole stack: beside another file's videos, catching up may take longer than that.
 */
async function drained(baseUrl = stackUrl()): Promise<boolean> {
  const res = await fetch(`${baseUrl}/_dev/background/drain`, { method: 'POST' });
  if (res.status !== 200 && res.status !== 500) throw new Error(`drain: ${res.status}`);
  return res.status === 200;
}

export async function runReconciler(baseUrl = stackUrl()): Promise<void> {
  const res = await fetch(`${baseUrl}/_dev/background/run/reconcileJobs`, { method: 'POST' });
  if (res.status !== 200) throw new Error(`reconcile: ${res.status}`);
}

/** Waits (draining the stream, never polling check-status) until the job has ended; with `reconcile`, runs the reconciler each round. */
export async function settled(jobId: string, opts: { reconcile?: boolean; timeoutMs?: number } = {}) {
  const deadline = Date.now() + (opts.timeoutMs ?? 30_000);
  for (;;) {
    // Not caught up yet: the job is looked at all the same, until this wait's own deadline.
    await drained();
    if (opts.reconcile) await runReconciler();
    const job = await jobItem(jobId);
    if (job && TERMINAL.includes(String(job.status))) return job;
    if (Date.now() > deadline) throw new Error(`Job ${jobId} still ${job?.status}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Moves a job's creation back in time (item and open-jobs index), as if it had been open that long. */
export async function backdateJob(jobId: string, ms: number): Promise<void> {
  const job = (await jobItem(jobId))!;
  const createdAt = new Date(Date.parse(String(job.createdAt)) - ms).toISOString();
  await dynamo().send(
    new UpdateCommand({
      TableName: stackEnv().TABLE_NAME,
      Key: { pk: `JOB#${jobId}`, sk: 'JOB' },
      UpdateExpression: 'SET createdAt = :c, opensk = :s',
      ConditionExpression: 'attribute_exists(openpk)',
      ExpressionAttributeValues: { ':c': createdAt, ':s': `${createdAt}#${jobId}` },
    }),
  );
}

/** The simulator's count of downloads of a prediction's outputs. */
export async function downloadsOf(providerId: string): Promise<number> {
  const base = stackEnv().REPLICATE_BASE_URL!.replace(/\/v1$/, '');
  return ((await (await fetch(`${base}/_sim/downloads/${providerId}`)).json()) as { downloads: number }).downloads;
}

/** The simulator's predictions made for this job (found by the job id in their webhook URL). */
export async function simPredictionsOf(jobId: string): Promise<Array<{ id: string; status: string }>> {
  const env = stackEnv();
  const res = await fetch(`${env.REPLICATE_BASE_URL}/predictions`, { headers: { authorization: `Bearer ${LOCAL_SECRETS.replicateToken}` } });
  const { results } = (await res.json()) as { results: Array<{ id: string; status: string; webhook?: string }> };
  return results.filter((p) => p.webhook && new URL(p.webhook).searchParams.get('job') === jobId);
}

/**
 * The end state every fault scenario must reach: the job ended (and left the open-jobs index), the balance is the
 * start minus the cost only when it succeeded, the ledger holds one charge and at most one refund for it, and the
 * media item exists exactly once when it succeeded.
 */
export async function expectExact(user: TestUser, jobId: string, expected: { start: number; cost: number; succeeded: boolean }) {
  const job = (await jobItem(jobId))!;
  expect(TERMINAL).toContain(job.status);
  expect(job.gsi1pk).toBeUndefined();
  expect(job.openpk).toBeUndefined();
  const account = (await userItems(user.sub, 'ACCOUNT'))[0]!;
  expect(account.credits).toBe(expected.start - (expected.succeeded ? expected.cost : 0));
  const rows = (await userItems(user.sub, 'LEDGER#')).filter((l) => l.ref === jobId);
  const charges = rows.filter((l) => l.delta < 0);
  const refunds = rows.filter((l) => l.reason === 'refund');
  expect(charges.map((l) => l.delta)).toEqual([-expected.cost]);
  expect(refunds.map((l) => l.delta)).toEqual(expected.succeeded ? [] : [expected.cost]);
  const media = (await userItems(user.sub, 'MEDIA#')).filter((m) => m.jobId === jobId);
  expect(media).toHaveLength(expected.succeeded ? 1 : 0);
  expect(job.status === 'succeeded').toBe(expected.succeeded);
  return job;
}
