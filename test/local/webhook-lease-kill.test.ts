/**
 * kill -9 between a webhook's claim and its effect (issue 36), on the embedded stack: the stack dies right after the
 * claim's write landed (FW_FAULT_DIE_AFTER_WRITE, the DynamoDB front's fault: the way a Lambda dies of a timeout or
 * out of memory), for a Replicate output and for a PayPal plan payment. Started again on its data, the claim holds its
 * lease (a copy is answered 409, so the provider retries); once the lease ran out, the provider's next try takes the
 * claim and applies the event once: the output stored once and charged once, the month granted once.
 */
import { UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { PLANS } from '../../contract/plans';
import { jobItem, postWebhook, providerIdOf, signedWebhook, userItems, waitForSim } from '../support/generation';
import { scanAll, type Item } from '../support/invariants';
import { downloadsOf, drainStreams, settled } from '../support/jobs';
import { paypalApi, visit, waitUntil } from '../support/payments';
import { exposeStackEnv, restartablePort, startStackProcess, stopStackProcess, type RunningStack } from '../support/start-stack';
import { atPaypal, decideSubscription, startSubscription, subscriptionOf } from '../support/subscriptions';
import { api, createAccount, signIn, stackEnv, type TestUser } from '../support/users';

jest.setTimeout(600_000);

const STARTER = PLANS[0]!;
/** Simulators quick, the reconcilers only when asked: only a webhook can apply what is tested here. */
const EXTRA_ENV = { SIM_IMAGE_MS: '300', RECONCILE_INTERVAL_MS: '3600000', RECONCILE_ASK_AFTER_TYPICAL: 'false' };

let stack: RunningStack | undefined;
let dataDir = '';
let port = 0;

async function start(fault?: string): Promise<void> {
  port ||= await restartablePort();
  stack = await startStackProcess({ web: 'none', port, extraEnv: { ...EXTRA_ENV, ...(fault ? { FW_FAULT_DIE_AFTER_WRITE: fault } : {}) }, ...(dataDir ? { dataDir } : {}), readyWithinMs: 180_000 });
  dataDir = stack.dataDir;
  exposeStackEnv(stack);
}

/** Waits for the stack the fault killed: its process (and tsx's wrapper) gone. */
async function died(): Promise<void> {
  const s = stack!;
  stack = undefined;
  if (s.child.exitCode === null && s.child.signalCode === null) {
    await Promise.race([new Promise((r) => s.child.once('exit', r)), new Promise((r) => setTimeout(r, 20_000))]);
  }
  // The wrapper outlived the stack it ran: end it too (the JVM left behind is ended by the next start).
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
}

/** The claim of a webhook delivery, as the inbox holds it. */
async function claimOf(pk: string): Promise<Item | undefined> {
  return (await scanAll()).find((i) => i.pk === pk && i.sk === 'WEBHOOK');
}

/** Time passes: the claim's lease ran out (as 50 s later). */
async function leaseRunsOut(pk: string): Promise<void> {
  await dynamo().send(
    new UpdateCommand({
      TableName: stackEnv().TABLE_NAME!,
      Key: { pk, sk: 'WEBHOOK' },
      UpdateExpression: 'SET leaseUntil = :past',
      ConditionExpression: 'attribute_exists(leaseUntil)',
      ExpressionAttributeValues: { ':past': Date.now() - 1_000 },
    }),
  );
}

let user: TestUser;
let password = '';
let jobId = '';
let subscriptionId = '';

beforeAll(async () => {
  await start();
  user = await createAccount();
  password = user.password;
  // A plan, approved, its first month granted (and PayPal's events about it handled).
  const back = await decideSubscription(await startSubscription(user, STARTER.id), 'approve');
  subscriptionId = new URL(back).searchParams.get('subscription_id')!;
  await visit(back);
  await waitUntil('the plan to be active', async () => (await subscriptionOf(user)).status === 'active');
  await waitUntil('PayPal’s events about the plan to be handled', async () => {
    const events = (await scanAll()).filter((i) => String(i.pk).startsWith('WEBHOOK#paypal:'));
    return events.length >= 2 && events.every((e) => e.appliedAt !== undefined);
  });
  // An image whose prediction succeeds at Replicate with no webhook of its own: the test is Replicate's webhook.
  const res = await api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt: 'a lighthouse at dawn [nowebhook]' }) });
  expect(res.status).toBe(200);
  jobId = ((await res.json()) as { predictionId: string }).predictionId;
  await waitForSim(await providerIdOf(jobId), ['succeeded']);
  await stopStackProcess(stack!.child.pid!);
  stack = undefined;
});

afterAll(async () => {
  if (stack) await stopStackProcess(stack.child.pid!, dataDir);
  else if (dataDir) {
    // Stopped cleanly, the data stays for nothing: remove it.
    const fs = await import('node:fs');
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
});

describe('kill -9 between a webhook’s claim and its effect', () => {
  it('a Replicate output: the claim holds its lease, then the retry applies it once (stored once, charged once)', async () => {
    const deliveryId = `msg_killme_${jobId}`;
    const pk = `WEBHOOK#replicate:${deliveryId}`;
    await start(`"${pk}"`);
    const done = await waitForSim(await providerIdOf(jobId), ['succeeded']);
    const body = JSON.stringify(done);
    const headers = signedWebhook(body, { id: deliveryId });
    // The claim lands, then the stack dies: Replicate's call gets no answer.
    await expect(postWebhook(jobId, body, headers)).rejects.toThrow();
    await died();

    await start();
    user = await signIn(user.email, password);
    expect(await claimOf(pk)).toMatchObject({ leaseUntil: expect.any(Number), claims: 1 });
    expect((await claimOf(pk))!.appliedAt).toBeUndefined();
    expect((await jobItem(jobId))!.status).not.toBe('succeeded');
    // Within the lease a copy is answered 409: Replicate tries again later.
    expect((await postWebhook(jobId, body, signedWebhook(body, { id: deliveryId }))).status).toBe(409);

    await leaseRunsOut(pk);
    const retried = await postWebhook(jobId, body, signedWebhook(body, { id: deliveryId }));
    expect(retried.status).toBe(200);
    expect(await retried.json()).toEqual({ ok: true });
    await drainStreams();
    expect((await settled(jobId)).status).toBe('succeeded');
    expect(await claimOf(pk)).toMatchObject({ appliedAt: expect.anything(), claims: 2 });
    // Once applied, a later copy is a duplicate and changes nothing.
    expect(await (await postWebhook(jobId, body, signedWebhook(body, { id: deliveryId }))).json()).toEqual({ ok: true, duplicate: true });
    expect(await downloadsOf(done.id)).toBe(1);
    const rows = (await userItems(user.sub, 'LEDGER#')).filter((l) => l.ref === jobId);
    expect(rows.map((l) => [l.reason, l.delta])).toEqual([['image', -1]]);
    expect((await userItems(user.sub, 'MEDIA#')).filter((m) => m.jobId === jobId)).toHaveLength(1);
  });

  it('a PayPal plan payment: the claim holds its lease, then PayPal’s resend grants the month once', async () => {
    await stopStackProcess(stack!.child.pid!);
    // The stack dies right after it claims the next month's PAYMENT.SALE.COMPLETED.
    await start('PAYMENT\\.SALE\\.COMPLETED');
    const before = (await userItems(user.sub, 'ACCOUNT'))[0]!.credits as number;
    const billed = await atPaypal(subscriptionId, 'bill', 'completed');
    expect(billed.status).toBe(200);
    await waitUntil('the stack to die at the claim', async () => stack!.child.exitCode !== null || stack!.child.signalCode !== null, 30_000);
    await died();

    await start();
    user = await signIn(user.email, password);
    const range = `start_time=2020-01-01T00:00:00Z&end_time=${new Date(Date.now() + 86_400_000).toISOString()}`;
    const sales = (await paypalApi('GET', `/v1/billing/subscriptions/${subscriptionId}/transactions?${range}`)).body.transactions as Array<{ id: string; status: string }>;
    expect(sales.map((s) => s.status)).toEqual(['COMPLETED', 'COMPLETED']);
    const sale = sales[1]!.id;
    const claim = await waitUntil('the claim of the sale’s event', async () =>
      (await scanAll()).find((i) => String(i.pk).startsWith('WEBHOOK#paypal:') && i.eventType === 'PAYMENT.SALE.COMPLETED' && i.appliedAt === undefined),
    );
    // PayPal's retries within the lease are answered 409: the month is not granted yet, and not lost.
    expect((await userItems(user.sub, 'LEDGER#')).filter((l) => l.ref === sale)).toEqual([]);

    await leaseRunsOut(String(claim.pk));
    const eventId = String(claim.pk).slice('WEBHOOK#paypal:'.length);
    expect((await paypalApi('POST', `/v1/notifications/webhooks-events/${eventId}/resend`)).status).toBe(202);
    const granted = await waitUntil('the month to be granted', async () => {
      const rows = (await userItems(user.sub, 'LEDGER#')).filter((l) => l.ref === sale && l.reason === 'plan');
      return rows.length ? rows : undefined;
    });
    expect(granted.map((l) => l.delta)).toEqual([STARTER.credits]);
    const applied = await waitUntil('the claim to be settled', async () => {
      const c = await claimOf(String(claim.pk));
      return c?.appliedAt !== undefined ? c : undefined;
    });
    expect(applied).toMatchObject({ claims: 2 });
    // Sent once more: handled as a duplicate, nothing granted twice.
    const copies = Number(applied.redeliveries ?? 0);
    expect((await paypalApi('POST', `/v1/notifications/webhooks-events/${eventId}/resend`)).status).toBe(202);
    await waitUntil('the resend to be answered', async () => Number((await claimOf(String(claim.pk)))!.redeliveries ?? 0) > copies);
    expect((await userItems(user.sub, 'LEDGER#')).filter((l) => l.ref === sale && l.reason === 'plan')).toHaveLength(1);
    const after = (await userItems(user.sub, 'ACCOUNT'))[0]!.credits as number;
    // The month's credits, less what the rollover cap expired of the month before (one month's grant kept).
    const expired = (await userItems(user.sub, 'LEDGER#')).filter((l) => l.ref === sale && l.reason === 'plan-expiry').reduce((n, l) => n + Number(l.delta), 0);
    expect(after).toBe(before + STARTER.credits + expired);
  });
});
