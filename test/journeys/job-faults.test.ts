/**
 * Every job ends and no credit is lost, with the provider failing the ways Replicate fails (the simulator's
 * markers), with nobody polling check-status: the webhook, the stream's copy and the reconciler settle each job.
 * Each scenario ends with expectExact: job terminal, balance and ledger exact, media saved once when it existed.
 */
import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { IMAGE_MODEL, maxRunMsOf, WAN_T2V } from '../../contract/catalog';
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { QUEUE_MAX_WAIT_MS } from '../../lambdas/app/steps/submit-or-queue';
import { dynamoJobStore } from '../../lambdas/adapters/dynamodb-jobs';
import { newId } from '../../lambdas/domain/ids';
import type { Job } from '../../lambdas/ports/jobs';
import { jobItem, json, postWebhook, providerIdOf, signedWebhook, simPrediction, userItems, waitForSim } from '../support/generation';
import { backdateJob, downloadsOf, drainStreams, expectExact, runReconciler, settled, simPredictionsOf } from '../support/jobs';
import { api, createAccount, stackEnv, stackUrl, type TestUser, WELCOME_CREDITS } from '../support/users';

jest.setTimeout(120_000);

const START = WELCOME_CREDITS;
const newUser = createAccount;

const image = (user: TestUser, prompt: string) => api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt }) });
const video = (user: TestUser, prompt: string) =>
  api(user, '/api/generate-video', { method: 'POST', body: JSON.stringify({ model: WAN_T2V, prompt, duration: 5 }) });

async function started(res: Promise<Response>): Promise<string> {
  const r = await res;
  const body = await r.json();
  if (r.status !== 200) throw new Error(`generate ${r.status}: ${JSON.stringify(body)}`);
  return body.predictionId as string;
}

/** Moves a queued job's entry into our queue back past the queue's maximum wait. */
async function ageQueued(jobId: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: stackEnv().TABLE_NAME!,
      Key: { pk: `JOB#${jobId}`, sk: 'JOB' },
      UpdateExpression: 'SET queuedAt = queuedAt - :ms',
      ConditionExpression: 'attribute_exists(queuedAt)',
      ExpressionAttributeValues: { ':ms': QUEUE_MAX_WAIT_MS + 1_000 },
    }),
  );
}

/** The job the user's one charge was for (when the API answered an error, not the job id). */
async function chargedJobOf(user: TestUser, kind: 'image' | 'video'): Promise<string> {
  const charges = (await userItems(user.sub, 'LEDGER#')).filter((l) => l.reason === kind);
  expect(charges).toHaveLength(1);
  return String(charges[0]!.ref);
}

/** A charged job exactly as start-job stores it, as if the function died before asking the provider (or before recording its answer). */
async function chargedJob(user: TestUser, prompt: string): Promise<Job> {
  const now = new Date();
  const job: Job = { id: newId(now), owner: user.sub, kind: 'image', model: IMAGE_MODEL.id, prompt, options: {}, cost: 1, status: 'pending', createdAt: now.toISOString() };
  const charged = await dynamoJobStore(dynamo(), stackEnv().TABLE_NAME!).createCharged(job);
  expect(charged.ok).toBe(true);
  return job;
}

/** A prediction made straight at the simulator for the job, with the webhook URL start-job gives it. */
async function predictionFor(jobId: string, prompt: string): Promise<string> {
  const env = stackEnv();
  const res = await fetch(`${env.REPLICATE_BASE_URL}/predictions`, {
    method: 'POST',
    headers: { authorization: `Bearer ${LOCAL_SECRETS.replicateToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ version: IMAGE_MODEL.version, input: { prompt, ...IMAGE_MODEL.input }, webhook: `${stackUrl()}/api/webhooks/replicate?job=${jobId}` }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { id: string }).id;
}

describe('every provider outcome ends the job, exactly', () => {
  it('succeeded: the webhook records the output, the stream saves it once, nobody polls', async () => {
    const user = await newUser();
    const id = await started(image(user, 'a lighthouse'));
    const job = await settled(id);
    expect(job.status).toBe('succeeded');
    await expectExact(user, id, { start: START, cost: 1, succeeded: true });
    expect(await downloadsOf(String(job.providerId))).toBe(1);
  });

  it('output deleted before the webhook ([lost]): failed and refunded, with a message saying why', async () => {
    const user = await newUser();
    const id = await started(image(user, 'a lighthouse [lost]'));
    const job = await settled(id);
    expect(job.error).toBe('The result was removed by the generation service before it could be saved. 1 credit refunded.');
    await expectExact(user, id, { start: START, cost: 1, succeeded: false });
  });

  it('data_removed in a succeeded delivery: failed and refunded without a download', async () => {
    const user = await newUser();
    const id = await started(image(user, 'a lighthouse [nowebhook]'));
    const done = await waitForSim(await providerIdOf(id), ['succeeded']);
    const body = JSON.stringify({ ...done, data_removed: true });
    expect((await postWebhook(id, body, signedWebhook(body))).status).toBe(200);
    const job = await settled(id);
    expect(job.error).toMatch(/removed by the generation service.*1 credit refunded\.$/);
    await expectExact(user, id, { start: START, cost: 1, succeeded: false });
    expect(await downloadsOf(done.id)).toBe(0);
  });

  it('aborted ([abort]): failed with the fallback reason and the refund, in plain words', async () => {
    const user = await newUser();
    const id = await started(video(user, 'waves [abort]'));
    const job = await settled(id);
    expect(job.error).toBe('Video generation failed. 8 credits refunded.');
    await expectExact(user, id, { start: START, cost: 8, succeeded: false });
  });

  it('canceled at the provider: canceled and refunded', async () => {
    const user = await newUser();
    const id = await started(video(user, 'waves [stuck]'));
    const env = stackEnv();
    await fetch(`${env.REPLICATE_BASE_URL}/predictions/${await providerIdOf(id)}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${LOCAL_SECRETS.replicateToken}` } });
    const job = await settled(id);
    expect(job).toMatchObject({ status: 'canceled', error: 'The generation was canceled. 8 credits refunded.' });
    await expectExact(user, id, { start: START, cost: 8, succeeded: false });
  });
});

describe('the create call fails or is slow', () => {
  it('a create that hangs past our timeout ([hang]): the prediction it made is cancelled and the job waits, charged, in our queue', async () => {
    const user = await newUser();
    const t0 = Date.now();
    const id = await started(image(user, 'a fox [hang]'));
    expect(Date.now() - t0).toBeLessThan(15_000);
    // Cancelled, unless its webhook recorded it on the job before the timeout was read (then the job follows it).
    const [made] = (await simPredictionsOf(id)).map((p) => p.status);
    if (made !== 'canceled') expect((await jobItem(id))!.providerId).toBeDefined();
    // Queued, unless the cancelled prediction's webhook named it first (then its cancellation ends the job); either
    // way it ends refunded (provider-queue.test.ts walks the queue).
    if ((await jobItem(id))!.queued) await ageQueued(id);
    const job = await settled(id, { reconcile: true });
    // A prediction the webhook named and that went on to succeed is delivered and paid for; anything else is refunded.
    await expectExact(user, id, { start: START, cost: 1, succeeded: job.status === 'succeeded' });
    if (job.status === 'succeeded') expect(made).not.toBe('canceled');
  });

  it('429 at create ([busy]): nothing runs, the job waits charged in our queue, then is refunded with a clear message', async () => {
    const user = await newUser();
    const id = await started(image(user, 'a fox [busy]'));
    expect(await simPredictionsOf(id)).toEqual([]);
    await ageQueued(id);
    const job = await settled(id, { reconcile: true });
    expect(job.error).toBe('The generation service is busy right now. Please try again in a minute. 1 credit refunded.');
    expect((await json<{ credits: number }>(api(user, '/api/me'))).credits).toBe(START);
  });

  it('500 after the provider accepted it ([down]): that prediction is cancelled and the job refunded', async () => {
    const user = await newUser();
    const res = await video(user, 'a fox [down]');
    expect(res.status).toBe(502);
    const jobId = await chargedJobOf(user, 'video');
    expect((await simPredictionsOf(jobId)).map((p) => p.status)).toEqual(['canceled']);
    await expectExact(user, jobId, { start: START, cost: 8, succeeded: false });
  });

  it('webhooks before the create call returns ([early]): applied by job id, never dropped', async () => {
    const user = await newUser();
    const id = await started(image(user, 'an owl [early]'));
    const job = await settled(id);
    expect(job.status).toBe('succeeded');
    await expectExact(user, id, { start: START, cost: 1, succeeded: true });
  });

  it('duplicate concurrent deliveries ([dup]): one claim, one copy, one media item', async () => {
    const user = await newUser();
    const id = await started(video(user, 'rain [dup]'));
    const job = await settled(id);
    expect(job.status).toBe('succeeded');
    await expectExact(user, id, { start: START, cost: 8, succeeded: true });
    expect(await downloadsOf(String(job.providerId))).toBe(1);
  });
});

describe('the reconciler', () => {
  it('a function that died after the charge, before the create: refunded once the bound passes', async () => {
    const user = await newUser();
    const job = await chargedJob(user, 'never asked');
    await runReconciler();
    expect((await jobItem(job.id))!.status).toBe('pending'); // too young to judge
    await backdateJob(job.id, 5 * 60_000);
    const done = await settled(job.id, { reconcile: true });
    expect(done.error).toBe('The generation service did not confirm the job. 1 credit refunded.');
    await expectExact(user, job.id, { start: START, cost: 1, succeeded: false });
  });

  it('a function that died before recording the prediction id: the prediction is cancelled and the job refunded', async () => {
    const user = await newUser();
    const job = await chargedJob(user, 'a hill [stuck] [nowebhook]');
    const predictionId = await predictionFor(job.id, 'a hill [stuck] [nowebhook]');
    await backdateJob(job.id, 5 * 60_000);
    await settled(job.id, { reconcile: true });
    expect((await simPrediction(predictionId)).status).toBe('canceled');
    await expectExact(user, job.id, { start: START, cost: 1, succeeded: false });
  });

  it('a prediction the provider does not know (404): failed and refunded', async () => {
    const user = await newUser();
    const job = await chargedJob(user, 'forgotten');
    await dynamoJobStore(dynamo(), stackEnv().TABLE_NAME!).markStarted(job.id, 'zzzzzzzzzzzzzzzzzzzzzzzzzz', 'processing');
    const done = await settled(job.id, { reconcile: true });
    expect(done.error).toBe('The generation service lost this job. 1 credit refunded.');
    await expectExact(user, job.id, { start: START, cost: 1, succeeded: false });
  });

  it('a lost webhook: the reconciler records the output and the stream saves it', async () => {
    const user = await newUser();
    const id = await started(image(user, 'a bay [nowebhook]'));
    await waitForSim(await providerIdOf(id), ['succeeded']);
    const job = await settled(id, { reconcile: true });
    expect(job.status).toBe('succeeded');
    await expectExact(user, id, { start: START, cost: 1, succeeded: true });
  });

  it('a prediction running past its model’s maximum run time: stopped at the provider and refunded', async () => {
    const user = await newUser();
    const id = await started(image(user, 'a tower [stuck]'));
    const providerId = await providerIdOf(id);
    await runReconciler();
    expect((await jobItem(id))!.status).not.toBe('failed');
    await backdateJob(id, maxRunMsOf(IMAGE_MODEL.id) + 10 * 60_000);
    const job = await settled(id, { reconcile: true });
    expect(job.error).toBe('The generation took too long and was stopped. 1 credit refunded.');
    expect((await simPrediction(providerId)).status).toBe('canceled');
    await expectExact(user, id, { start: START, cost: 1, succeeded: false });
  });
});

describe('webhooks answer fast and once', () => {
  it('50 concurrent copies of one delivery: one is handled, the output is fetched and stored once', async () => {
    const user = await newUser();
    const id = await started(image(user, 'a harbour [nowebhook]'));
    const done = await waitForSim(await providerIdOf(id), ['succeeded']);
    const body = JSON.stringify(done);
    const headers = signedWebhook(body, { id: `msg_same_${id}` });
    const answers = await Promise.all(Array.from({ length: 50 }, () => postWebhook(id, body, headers).then(async (r) => ({ status: r.status, body: await r.json() }))));
    // Copies arriving while the first holds its lease are answered 409 (Replicate retries them); none is a 5xx.
    expect(answers.every((a) => a.status === 200 || a.status === 409)).toBe(true);
    expect(answers.filter((a) => a.status === 200 && !a.body.duplicate)).toHaveLength(1);
    await drainStreams();
    await settled(id);
    await expectExact(user, id, { start: START, cost: 1, succeeded: true });
    expect(await downloadsOf(done.id)).toBe(1);
  });

  it('25 different deliveries of one success: one copy', async () => {
    const user = await newUser();
    const id = await started(image(user, 'a quay [nowebhook]'));
    const done = await waitForSim(await providerIdOf(id), ['succeeded']);
    const body = JSON.stringify(done);
    const answers = await Promise.all(Array.from({ length: 25 }, () => postWebhook(id, body, signedWebhook(body))));
    expect(answers.map((a) => a.status)).toEqual(Array(25).fill(200));
    await settled(id);
    await expectExact(user, id, { start: START, cost: 1, succeeded: true });
    expect(await downloadsOf(done.id)).toBe(1);
  });
});
