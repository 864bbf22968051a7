/**
 * No credit stuck, lost or taken twice at the edges, end to end on the embedded stack: a refund lands whatever the
 * balance (a claw-back below zero included) and every job still ends; a deletion and the generations racing it
 * exclude each other; a start retried with the same Idempotency-Key charges once. Each scenario ends with the
 * whole-table invariant check (balance = ledger, activeJobs = open jobs, open jobs = the index).
 */
import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { DeleteCommand, GetCommand, PutCommand, QueryCommand } from '@aws-sdk/lib-dynamodb';
import { BusinessMetric } from '../../contract/metrics';
import { dynamoJobStore } from '../../lambdas/adapters/dynamodb-jobs';
import { meteredJobs } from '../../lambdas/adapters/metered';
import { RefundNotLanded } from '../../lambdas/domain/errors';
import { Messages } from '../../contract/errors';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { jobItem, postWebhook, providerIdOf, signedWebhook, simPrediction, userItems, waitForSim } from '../support/generation';
import { checkInvariants } from '../support/invariants';
import { runReconciler, settled } from '../support/jobs';
import { PACK_72, bothWebhooksHandled, captureIdOf, decideAtPaypal, refundAtPaypal, startPayment, visit, waitUntil } from '../support/payments';
import { api, createUser, stackEnv, type TestUser } from '../support/users';

jest.setTimeout(240_000);

const generate = (user: TestUser, body: Record<string, unknown>, headers: Record<string, string> = {}) =>
  api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify(body), headers });
async function started(user: TestUser, prompt: string, count = 1): Promise<string> {
  const res = await generate(user, { prompt, count });
  const body = await res.json();
  if (res.status !== 200) throw new Error(`generate ${res.status}: ${JSON.stringify(body)}`);
  return body.predictionId as string;
}
const account = async (user: TestUser) => (await userItems(user.sub, 'ACCOUNT'))[0]!;
const del = (user: TestUser) => api(user, '/api/me', { method: 'DELETE' });
/** Everything left under the user's own partition. */
const partition = async (sub: string) =>
  (await dynamo().send(new QueryCommand({ TableName: stackEnv().TABLE_NAME, KeyConditionExpression: 'pk = :pk', ExpressionAttributeValues: { ':pk': `USER#${sub}` }, ConsistentRead: true }))).Items ?? [];

async function expectConsistentTable() {
  const report = await checkInvariants();
  // The figures, for the report of a run.
  console.log(`invariants: ${JSON.stringify({ ...report, problems: report.problems.length })}`);
  expect(report.problems).toEqual([]);
}

describe('a refund always lands', () => {
  it('after a claw-back leaves the balance below zero, running jobs end by webhook, cancel and the reconciler, each refund lands, and the account can be deleted', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    const { paymentUrl, orderId } = await startPayment(user);
    await visit(await decideAtPaypal(paymentUrl, 'approve'));
    await bothWebhooksHandled(orderId);
    expect((await account(user)).credits).toBe(82);

    // Three jobs waiting for a machine (each ended later by another path), then the rest spent down to 68.
    const byWebhook = await started(user, 'a storm waiting for a machine [queued] [nowebhook]');
    const byCancel = await started(user, 'a harbour waiting for a machine [queued]');
    const byReconciler = await started(user, 'a quay waiting for a machine [queued] [nowebhook]');
    for (const count of [4, 4, 3]) expect((await settled(await started(user, `spent ${count}`, count))).status).toBe('succeeded');
    expect(await account(user)).toMatchObject({ credits: 68, activeJobs: 3 });

    await refundAtPaypal(await captureIdOf(orderId));
    await waitUntil('the claw-back', async () => (await account(user)).credits === -4);

    // The provider fails one: its signed webhook refunds it, below zero.
    const failedId = await providerIdOf(byWebhook);
    const failure = JSON.stringify({ ...(await simPrediction(failedId)), status: 'failed', error: 'CUDA out of memory', output: null });
    expect((await postWebhook(byWebhook, failure, signedWebhook(failure))).status).toBe(200);
    expect(await jobItem(byWebhook)).toMatchObject({ status: 'failed', refunded: true });

    // The owner cancels one before it starts: a full refund, and the answer says so.
    const cancel = await api(user, `/api/jobs/${byCancel}/cancel`, { method: 'POST', body: '{}' });
    expect(cancel.status).toBe(200);
    expect(await cancel.json()).toEqual({ status: 'canceled', refunded: 1, credits: -2, error: 'The generation was canceled. 1 credit refunded.' });

    // The last is canceled at the provider with no webhook: the reconciler finds it and refunds it.
    const lostId = await providerIdOf(byReconciler);
    const env = stackEnv();
    await fetch(`${env.REPLICATE_BASE_URL}/predictions/${lostId}/cancel`, { method: 'POST', headers: { authorization: `Bearer ${LOCAL_SECRETS.replicateToken}` } });
    await waitForSim(lostId, ['canceled']);
    await runReconciler();
    expect(await jobItem(byReconciler)).toMatchObject({ status: 'canceled', refunded: true });

    expect(await account(user)).toMatchObject({ credits: -1, activeJobs: 0 });
    const refunds = (await userItems(user.sub, 'LEDGER#')).filter((l) => l.reason === 'refund');
    expect(refunds.map((l) => [l.ref, l.delta, l.balance])).toEqual(
      expect.arrayContaining([
        [byWebhook, 1, expect.any(Number)],
        [byCancel, 1, -2],
        [byReconciler, 1, expect.any(Number)],
      ]),
    );
    expect(refunds).toHaveLength(3);
    await expectConsistentTable();

    // Generation still waits for a positive balance; deletion no longer waits for anything.
    const refused = await generate(user, { prompt: 'one more' });
    expect(refused.status).toBe(402);
    expect((await refused.json()).error).toBe(Messages.negativeBalance);
    expect((await del(user)).status).toBe(204);
    await expectConsistentTable();
  });
});

describe('deletion and generation exclude each other', () => {
  it('10 rounds of a deletion racing 10 generates: no 5xx, and every accepted generation ends before the account goes', async () => {
    const statuses: number[] = [];
    for (let round = 0; round < 10; round++) {
      const user = await createUser();
      await api(user, '/api/me');
      const deletion = del(user);
      const generates = await Promise.all(
        Array.from({ length: 10 }, (_, i) => new Promise<Response>((r) => setTimeout(() => r(generate(user, { prompt: `race ${round}.${i}` })), i * 8))),
      );
      const first = await deletion;
      const bodies = await Promise.all(generates.map(async (g) => ({ status: g.status, body: await g.json() })));
      statuses.push(first.status, ...bodies.map((b) => b.status));
      const accepted = bodies.filter((b) => b.status === 200).map((b) => b.body.predictionId as string);
      for (const b of bodies.filter((x) => x.status >= 400)) expect(b.body.error).toEqual(expect.any(String));
      if (first.status === 204) {
        // The account went first: nothing was accepted, so no prediction exists for an account that is gone.
        expect(accepted).toEqual([]);
      } else {
        expect(first.status).toBe(409);
        expect(accepted.length).toBeGreaterThan(0);
        for (const id of accepted) await settled(id);
        expect((await del(user)).status).toBe(204);
      }
      expect(await partition(user.sub)).toEqual([]);
    }
    const tally = statuses.reduce<Record<number, number>>((t, s) => ({ ...t, [s]: (t[s] ?? 0) + 1 }), {});
    console.log(`deletion race statuses (10 deletions, 100 generates, retried deletions not counted): ${JSON.stringify(tally)}`);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    await expectConsistentTable();
  });
});

describe('idempotent starts', () => {
  const keyed = (user: TestUser, key: string, body: Record<string, unknown>) => generate(user, body, { 'Idempotency-Key': key });
  /** Sends again with the same key while the first call still runs (409 IDEMPOTENCY_IN_PROGRESS), as the web app does. */
  async function untilAnswered(send: () => Promise<Response>): Promise<Response> {
    for (let i = 0; ; i++) {
      const res = await send();
      if (res.status !== 409 || i > 40) return res;
      const body = await res.clone().json();
      if (body.code !== 'IDEMPOTENCY_IN_PROGRESS') return res;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const charges = async (user: TestUser) => (await userItems(user.sub, 'LEDGER#')).filter((l) => l.reason === 'image');

  it('the same key and body answer the first answer and charge once, even when sent five times at once', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    const key = `click-${Date.now()}`;
    const first = await keyed(user, key, { prompt: 'a lighthouse at dusk' });
    expect(first.status).toBe(200);
    const answer = await first.json();
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const again = await keyed(user, key, { prompt: 'a lighthouse at dusk' });
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(await again.json()).toEqual(answer);

    const burst = `burst-${Date.now()}`;
    const answers = await Promise.all(Array.from({ length: 5 }, () => untilAnswered(() => keyed(user, burst, { prompt: 'a harbour at dawn' }))));
    const bodies = await Promise.all(answers.map((a) => a.json()));
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200, 200, 200]);
    expect(new Set(bodies.map((b) => b.predictionId)).size).toBe(1);
    expect(await charges(user)).toHaveLength(2);

    // A key is the user's own: another user's same key starts their own job.
    const other = await createUser();
    const theirs = await keyed(other, key, { prompt: 'a lighthouse at dusk' });
    expect(theirs.status).toBe(200);
    expect((await theirs.json()).predictionId).not.toBe(answer.predictionId);
    for (const id of [answer.predictionId, bodies[0].predictionId]) await settled(id);
  });

  it('a retried generate whose first answer was lost charges once', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    const key = `lost-${Date.now()}`;
    const body = JSON.stringify({ prompt: 'a quay in the rain' });
    // The first answer never reaches the client (it gave up waiting); the server goes on and charges.
    const gaveUp = new AbortController();
    const lost = api(user, '/api/generate-image', { method: 'POST', body, headers: { 'Idempotency-Key': key }, signal: gaveUp.signal }).catch(() => undefined);
    await waitUntil('the charge', async () => (await charges(user)).length > 0, 10_000);
    gaveUp.abort();
    await lost;
    const retried = await untilAnswered(() => keyed(user, key, { prompt: 'a quay in the rain' }));
    expect(retried.status).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    const { predictionId } = await retried.json();
    await settled(predictionId);
    expect((await charges(user)).map((c) => c.ref)).toEqual([predictionId]);
    expect((await account(user)).credits).toBe(9);
  });

  it('another body under the same key is a 422, a malformed key a 400, and a 4xx answer stands for its key', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    const key = `mixed-${Date.now()}`;
    const first = await keyed(user, key, { prompt: 'a meadow', count: 4 });
    expect(first.status).toBe(200);
    const reused = await keyed(user, key, { prompt: 'a different meadow', count: 4 });
    expect(reused.status).toBe(422);
    expect(await reused.json()).toMatchObject({ error: Messages.idempotencyKeyReused, code: 'IDEMPOTENCY_KEY_REUSED' });
    const bad = await keyed(user, 'has spaces in it', { prompt: 'a meadow' });
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toBe(Messages.idempotencyKeyInvalid);

    // 6 credits left: a 4-image request then a 4-image request under a new key is refused (402), and that answer is
    // kept for its key (the web makes a new key for a new click).
    await settled((await first.json()).predictionId);
    expect((await keyed(user, `k2-${key}`, { prompt: 'a field', count: 4 })).status).toBe(200);
    const short = await keyed(user, `k3-${key}`, { prompt: 'a field', count: 4 });
    expect(short.status).toBe(402);
    expect((await keyed(user, `k3-${key}`, { prompt: 'a field', count: 4 })).headers.get('idempotent-replayed')).toBe('true');
    expect((await charges(user)).length).toBe(2);
  });

  it('create-paypal-payment with the same key makes one order', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    const key = `buy-${Date.now()}`;
    const pay = () =>
      api(user, '/api/create-paypal-payment', { method: 'POST', body: JSON.stringify({ withdrawalConsent: true, amount: PACK_72.amount, credits: PACK_72.credits }), headers: { 'Idempotency-Key': key } });
    const [a, b] = [await pay(), await pay()];
    expect([a.status, b.status]).toEqual([200, 200]);
    const [first, second] = [await a.json(), await b.json()];
    expect(second).toEqual(first);
    expect((await userItems(user.sub, 'PAYMENT#')).map((p) => p.orderId)).toEqual([first.orderId]);
    await expectConsistentTable();
  });
});

describe('a refund that cannot land', () => {
  it('is an error, counted once per attempt, never reported as refunded, and the job stays open for the next attempt', async () => {
    const table = stackEnv().TABLE_NAME!;
    const counted: string[] = [];
    const jobs = meteredJobs(dynamoJobStore(dynamo(), table), { count: (m) => void counted.push(m) });
    const user = await createUser();
    await api(user, '/api/me');
    const id = await started(user, 'a pier waiting for a machine [queued] [nowebhook]');
    const job = (await jobs.get(id))!;
    // The owner's account vanished under its open job (nothing in the app does this: the deletion waits for open jobs).
    const accountKey = { pk: `USER#${user.sub}`, sk: 'ACCOUNT' };
    const saved = (await dynamo().send(new GetCommand({ TableName: table, Key: accountKey }))).Item!;
    await dynamo().send(new DeleteCommand({ TableName: table, Key: accountKey }));
    try {
      await expect(jobs.failAndRefund(job, 'failed', 'x')).rejects.toBeInstanceOf(RefundNotLanded);
      await expect(jobs.cancel(job, true, 'x')).rejects.toBeInstanceOf(RefundNotLanded);
      expect(counted).toEqual([BusinessMetric.RefundNotLanded, BusinessMetric.RefundNotLanded]);
      expect(await jobItem(id)).toMatchObject({ status: job.status, openpk: expect.stringMatching(/^OPEN_JOB#\d+$/) });
    } finally {
      await dynamo().send(new PutCommand({ TableName: table, Item: saved }));
    }
    // Back, the next attempt lands.
    expect(await jobs.failAndRefund(job, 'failed', 'The generation failed. 1 credit refunded.')).toBe(true);
    expect(await account(user)).toMatchObject({ credits: 10, activeJobs: 0 });
    await expectConsistentTable();
  });
});
