/**
 * Starts that degrade instead of fail: when Replicate rate limits us (429) or does not answer in time, the start is
 * accepted into our own queue (charged, shown starting), the reconciler submits it as the provider takes predictions
 * again, and a job still queued past the queue's maximum wait is failed and refunded. Each ends exact, and the
 * table's money invariants hold.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { QUEUE_MAX_WAIT_MS } from '../../lambdas/app/steps/submit-or-queue';
import { jobItem, json } from '../support/generation';
import { checkInvariants } from '../support/invariants';
import { expectExact, runReconciler, settled, simPredictionsOf } from '../support/jobs';
import { api, createAccount, stackEnv, type TestUser, WELCOME_CREDITS } from '../support/users';

jest.setTimeout(120_000);

const image = (user: TestUser, prompt: string) => api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt }) });

async function startQueued(user: TestUser, prompt: string): Promise<string> {
  const res = await image(user, prompt);
  const body = await json<{ predictionId: string; credits: number }>(res);
  expect(res.status).toBe(200);
  expect(body.credits).toBe(WELCOME_CREDITS - 1);
  const job = (await jobItem(body.predictionId))!;
  expect(job).toMatchObject({ status: 'pending', queued: { input: expect.objectContaining({ prompt }) } });
  expect(job.providerId).toBeUndefined();
  // Shown as starting to its owner, charged.
  const status = await json<{ status: string }>(api(user, `/api/check-status/${body.predictionId}`));
  expect(status.status).toBe('starting');
  return body.predictionId;
}

/** Moves a queued job's entry into the queue back in time. */
async function ageQueued(jobId: string, ms: number) {
  await dynamo().send(
    new UpdateCommand({
      TableName: stackEnv().TABLE_NAME,
      Key: { pk: `JOB#${jobId}`, sk: 'JOB' },
      UpdateExpression: 'SET queuedAt = queuedAt - :ms',
      ConditionExpression: 'attribute_exists(queuedAt)',
      ExpressionAttributeValues: { ':ms': ms },
    }),
  );
}

afterEach(async () => {
  expect((await checkInvariants()).problems).toEqual([]);
});

it('a passing 429: the start is queued and charged, then submitted by the reconciler once the provider takes it, and succeeds', async () => {
  const user = await createAccount();
  const prompt = `a heron ${Date.now()} [busy-briefly]`;
  const id = await startQueued(user, prompt);
  expect(await simPredictionsOf(id)).toEqual([]);
  // Still busy: the reconciler leaves it queued.
  await runReconciler();
  expect((await jobItem(id))!.providerId).toBeUndefined();
  await new Promise((r) => setTimeout(r, 5_000)); // the simulator's busy spell (SIM_BUSY_MS) passes
  const job = await settled(id, { reconcile: true });
  expect(job.status).toBe('succeeded');
  expect(job.queued).toBeUndefined();
  await expectExact(user, id, { start: WELCOME_CREDITS, cost: 1, succeeded: true });
});

it('a provider that stays busy: the queued job is failed and refunded past the maximum wait, never submitted', async () => {
  const user = await createAccount();
  const id = await startQueued(user, `a heron ${Date.now()} [busy]`);
  await runReconciler();
  expect((await jobItem(id))!.status).toBe('pending');
  await ageQueued(id, QUEUE_MAX_WAIT_MS + 1_000);
  const job = await settled(id, { reconcile: true });
  expect(job.error).toBe('The generation service is busy right now. Please try again in a minute. 1 credit refunded.');
  expect(await simPredictionsOf(id)).toEqual([]);
  await expectExact(user, id, { start: WELCOME_CREDITS, cost: 1, succeeded: false });
});

it('a queued job can be cancelled: refunded in full, and the reconciler never submits it', async () => {
  const user = await createAccount();
  const id = await startQueued(user, `a heron ${Date.now()} [busy]`);
  const res = await api(user, `/api/jobs/${id}/cancel`, { method: 'POST', body: '{}' });
  expect(res.status).toBe(200);
  await runReconciler();
  expect(await simPredictionsOf(id)).toEqual([]);
  await expectExact(user, id, { start: WELCOME_CREDITS, cost: 1, succeeded: false });
});
