/**
 * No credit stuck, lost or taken twice at the edges, end to end on the embedded stack: a refund lands whatever the
 * balance (a claw-back below zero included) and every job still ends; a deletion and the generations racing it
 * exclude each other; a start retried with the same Idempotency-Key charges once. Each scenario ends with the
 * whole-table invariant check (balance = ledger, activeJobs = open jobs, open jobs = the index).
 */
import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { QueryCommand } from '@aws-sdk/lib-dynamodb';
import { Messages } from '../../contract/errors';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { jobItem, postWebhook, providerIdOf, signedWebhook, simPrediction, userItems, waitForSim } from '../support/generation';
import { checkInvariants } from '../support/invariants';
import { runReconciler, settled } from '../support/jobs';
import { bothWebhooksHandled, captureIdOf, decideAtPaypal, refundAtPaypal, startPayment, visit, waitUntil } from '../support/payments';
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
