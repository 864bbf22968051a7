/**
 * What happens to a purchase after PayPal's capture, end to end on the embedded stack: refunds and reversals take
 * the credits back (once, in proportion, below zero if they were spent), disputes show on the order, declined and
 * pending captures, the approval page again after INSTRUMENT_DECLINED, receipts, and what a return page may say.
 */
import { Messages } from '../../contract/errors';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { dynamoOrderStore } from '../../lambdas/adapters/dynamodb-orders';
import { maskEmail } from '../../contract/mask-email';
import { userItems } from '../support/generation';
import {
  PACK_150,
  PACK_72,
  bothWebhooksHandled,
  captureIdOf,
  decideAtPaypal,
  handledOfType,
  orderItem,
  paypalApi,
  refundAtPaypal,
  simulatorAction,
  startPayment,
  visit,
  waitUntil,
} from '../support/payments';
import { api, createUser, mailFor, stackEnv, stackUrl, type TestUser } from '../support/users';

const credits = async (user: TestUser) => ((await (await api(user, '/api/me')).json()) as { credits: number }).credits;
const ledger = async (user: TestUser) => (await userItems(user.sub, 'LEDGER#')).map((l) => [l.reason, l.delta] as [string, number]);
const outcome = async (orderId: string) => {
  const res = await fetch(`${stackUrl()}/api/payment-outcome?order=${encodeURIComponent(orderId)}`);
  return { status: res.status, body: await res.json() };
};
const ordersOf = async (user: TestUser) => ((await (await api(user, '/api/payments')).json()) as { orders: Array<Record<string, unknown>> }).orders;

/** Buys a pack through PayPal's approval page and the return, and waits for PayPal's two webhooks. */
async function buy(user: TestUser, pack = PACK_72) {
  const { paymentUrl, orderId } = await startPayment(user, pack);
  const hop = await visit(await decideAtPaypal(paymentUrl, 'approve'));
  expect(hop.location).toBe(`/?payment=success&order=${orderId}`);
  await bothWebhooksHandled(orderId);
  return { orderId, captureId: await captureIdOf(orderId) };
}

describe('refunds and reversals take the credits back', () => {
  it('a full refund takes back the pack once, even when PayPal delivers its webhook again', async () => {
    const user = await createUser();
    await credits(user);
    const { orderId, captureId } = await buy(user);
    expect(await credits(user)).toBe(82);

    const refund = await refundAtPaypal(captureId);
    await waitUntil('the refund to be taken back', async () => (await credits(user)) === 10);
    const [event] = await waitUntil('the refund event', async () => {
      const e = await handledOfType(orderId, 'PAYMENT.CAPTURE.REFUNDED');
      return e.length ? e : undefined;
    });
    const eventId = String(event!.pk).slice('WEBHOOK#paypal:'.length);
    await Promise.all([1, 2, 3].map(() => paypalApi('POST', `/v1/notifications/webhooks-events/${eventId}/resend`)));
    await waitUntil('the redeliveries', async () => ((await handledOfType(orderId, 'PAYMENT.CAPTURE.REFUNDED'))[0]?.redeliveries ?? 0) >= 3);

    expect(await credits(user)).toBe(10);
    expect(await ledger(user)).toEqual([
      ['welcome', 10],
      ['purchase', 72],
      ['purchase-refund', -72],
    ]);
    expect(await orderItem(orderId)).toMatchObject({ status: 'refunded', refundedCents: 699, creditsTakenBack: 72, refundIds: new Set([refund.id]) });
    expect(await ordersOf(user)).toEqual([expect.objectContaining({ id: orderId, status: 'refunded', refundedAmount: '6.99', creditsTakenBack: 72, captureId })]);
    // The return page no longer says the payment added credits.
    expect((await outcome(orderId)).body).toEqual({ outcome: 'error' });
  });

  it('the order store applies one refund id once, however many take it back at the same time', async () => {
    const user = await createUser();
    await credits(user);
    const { orderId } = await buy(user);
    const store = dynamoOrderStore(dynamo(), stackEnv().TABLE_NAME!);
    const order = (await store.get(orderId))!;
    const take = { refundId: 'RACEREFUND0000001', reason: 'purchase-refund' as const, refundedCents: 350, creditsTakenBack: 36, status: 'partially_refunded' as const, at: new Date().toISOString() };
    const results = await Promise.all(Array.from({ length: 8 }, () => store.takeBack(order, take)));
    expect(results.filter((r) => r.applied)).toHaveLength(1);
    expect(await credits(user)).toBe(82 - 36);
    expect((await ledger(user)).filter(([r]) => r === 'purchase-refund')).toEqual([['purchase-refund', -36]]);
    // Read again (as the use case does after 'stale'), the same refund is seen as applied.
    expect((await store.get(orderId))!.refundIds).toEqual(['RACEREFUND0000001']);
  });

  it('two partial refunds at once add up to the whole pack', async () => {
    const user = await createUser();
    await credits(user);
    const { orderId, captureId } = await buy(user, PACK_150);
    await Promise.all([refundAtPaypal(captureId, '5.00'), refundAtPaypal(captureId, '8.99')]);
    await waitUntil('both refunds', async () => (await handledOfType(orderId, 'PAYMENT.CAPTURE.REFUNDED')).length === 2);
    expect(await credits(user)).toBe(10);
    const taken = (await ledger(user)).filter(([r]) => r === 'purchase-refund').map(([, d]) => d);
    expect(taken).toHaveLength(2);
    expect(taken.reduce((a, b) => a + b, 0)).toBe(-150);
    expect(await orderItem(orderId)).toMatchObject({ status: 'refunded', refundedCents: 1399, creditsTakenBack: 150 });
  });

  it('a refund after the credits were spent leaves the balance below zero; generation waits until a purchase makes it positive', async () => {
    const user = await createUser();
    await credits(user);
    const { captureId } = await buy(user);
    // Spend 12 of the 82 credits (three jobs of 4 images, 1 credit each, within the queue): more than the 10 that were not bought.
    const spent = await Promise.all(
      Array.from({ length: 3 }, (_, i) => api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt: `spend ${i}`, count: 4 }) })),
    );
    expect(spent.map((r) => r.status).filter((s) => s !== 200)).toEqual([]);
    expect(await credits(user)).toBe(70);

    await refundAtPaypal(captureId);
    await waitUntil('the claw-back', async () => (await credits(user)) === -2);
    const refused = await api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt: 'after the refund' }) });
    expect(refused.status).toBe(402);
    expect(await refused.json()).toEqual({ error: Messages.negativeBalance, code: 'NOT_ENOUGH_CREDITS', required: 1 });
    expect(await credits(user)).toBe(-2);

    await buy(user, PACK_150);
    expect(await credits(user)).toBe(148);
    expect((await api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt: 'paid again' }) })).status).toBe(200);
  });

  it('a refund racing the purchase webhooks: credited once and taken back once, in whatever order they arrive', async () => {
    const user = await createUser();
    await credits(user);
    const { paymentUrl, orderId } = await startPayment(user);
    await decideAtPaypal(paymentUrl, 'approve'); // the buyer never comes back to our return URL
    const capture = await paypalApi('POST', `/v2/checkout/orders/${orderId}/capture`);
    expect(capture.status).toBe(201);
    await refundAtPaypal(capture.body.purchase_units[0].payments.captures[0].id);
    await waitUntil('all three events', async () => (await handledOfType(orderId, 'PAYMENT.CAPTURE.REFUNDED')).length === 1 && (await bothWebhooksHandled(orderId)).length >= 2);
    expect(await credits(user)).toBe(10);
    expect(await ledger(user)).toEqual([
      ['welcome', 10],
      ['purchase', 72],
      ['purchase-refund', -72],
    ]);
  });

  it('a dispute shows on the order; decided for the buyer it reverses the payment as a chargeback', async () => {
    const user = await createUser();
    await credits(user);
    const { orderId, captureId } = await buy(user);
    const dispute = await simulatorAction(`/simulator/captures/${captureId}/dispute`);
    await waitUntil('the dispute', async () => (await ordersOf(user))[0]?.dispute === 'open');
    expect(await credits(user)).toBe(82);
    await simulatorAction(`/simulator/disputes/${dispute.dispute_id}/resolve`, { favour: 'buyer' });
    await waitUntil('the chargeback and the resolution', async () => {
      const o = (await ordersOf(user))[0];
      return o?.status === 'reversed' && o.dispute === 'resolved';
    });
    expect(await credits(user)).toBe(10);
    expect((await ledger(user)).at(-1)).toEqual(['chargeback', -72]);
    expect(await orderItem(orderId)).toMatchObject({ status: 'reversed', creditsTakenBack: 72 });
  });
});

describe('declined, pending and retried captures', () => {
  it('DECLINED: the order fails, nothing is credited, no receipt', async () => {
    const user = await createUser();
    await credits(user);
    const { paymentUrl, orderId } = await startPayment(user);
    const hop = await visit(await decideAtPaypal(paymentUrl, 'approve', 'DECLINED'));
    expect(hop.location).toBe(`/?payment=error&order=${orderId}`);
    await waitUntil('the declined event', async () => (await handledOfType(orderId, 'PAYMENT.CAPTURE.DECLINED')).length === 1);
    expect(await orderItem(orderId)).toMatchObject({ status: 'failed' });
    expect(await credits(user)).toBe(10);
    expect((await outcome(orderId)).body).toEqual({ outcome: 'error' });
    expect((await ordersOf(user))[0]).toMatchObject({ status: 'failed', statusAt: expect.any(String) });
    expect((await mailFor(user.email)).filter((m) => /receipt/i.test(m.subject))).toHaveLength(0);
  });

  it('INSTRUMENT_DECLINED: the return sends the buyer back to PayPal to choose another funding source, then pays', async () => {
    const user = await createUser();
    await credits(user);
    const { paymentUrl, orderId } = await startPayment(user);
    const back = await decideAtPaypal(paymentUrl, 'approve', 'INSTRUMENT_DECLINED');
    expect(await visit(back)).toEqual({ status: 302, location: paymentUrl });
    expect(await credits(user)).toBe(10);
    expect(await orderItem(orderId)).toMatchObject({ status: 'created' });
    expect(await visit(await decideAtPaypal(paymentUrl, 'approve', 'COMPLETED'))).toEqual({ status: 302, location: `/?payment=success&order=${orderId}` });
    expect(await credits(user)).toBe(82);
  });

  it('PENDING: "Pending" until PayPal completes the capture, then credited once; a denied one fails', async () => {
    const user = await createUser();
    await credits(user);
    const held = await startPayment(user);
    expect((await visit(await decideAtPaypal(held.paymentUrl, 'approve', 'PENDING'))).location).toBe(`/?payment=pending&order=${held.orderId}`);
    expect(await orderItem(held.orderId)).toMatchObject({ status: 'pending' });
    expect((await outcome(held.orderId)).body).toEqual({ outcome: 'pending' });
    await simulatorAction(`/simulator/captures/${await captureIdOf(held.orderId)}/complete`);
    await waitUntil('the completed capture to credit', async () => (await credits(user)) === 82);

    const denied = await startPayment(user);
    await visit(await decideAtPaypal(denied.paymentUrl, 'approve', 'PENDING'));
    await simulatorAction(`/simulator/captures/${await captureIdOf(denied.orderId)}/deny`);
    await waitUntil('the denial', async () => (await orderItem(denied.orderId))?.status === 'failed');
    expect(await credits(user)).toBe(82);
  });
});

describe('what a return page may say', () => {
  it('success with the server\u2019s credits and the buyer\u2019s masked email; unknown orders 404, malformed ones 400', async () => {
    const user = await createUser();
    await credits(user);
    const { orderId, captureId } = await buy(user);
    expect(await outcome(orderId)).toEqual({ status: 200, body: { outcome: 'success', credits: 72, buyer: maskEmail(user.email) } });
    expect(maskEmail(user.email)).not.toContain(user.email.split('@')[0]!.slice(1));
    expect(await outcome('NOSUCHORDER000000')).toEqual({ status: 404, body: { error: Messages.unknownOrder, code: 'NOT_FOUND' } });
    for (const bad of ['', 'not an order', 'a'.repeat(100)]) expect((await outcome(bad)).status).toBe(400);

    const receipts = await waitUntil('the receipt', async () => {
      const m = (await mailFor(user.email)).filter((x) => /receipt/i.test(x.subject));
      return m.length ? m : undefined;
    });
    expect(receipts).toHaveLength(1);
    for (const part of ['$6.99', 'USD', '72', captureId, orderId]) expect(receipts[0]!.text).toContain(part);
  });

  it('a cancel marks the order canceled and the page says so', async () => {
    const user = await createUser();
    const { paymentUrl, orderId } = await startPayment(user);
    expect(await visit(await decideAtPaypal(paymentUrl, 'cancel'))).toEqual({ status: 302, location: `/?payment=cancel&order=${orderId}` });
    expect((await outcome(orderId)).body).toEqual({ outcome: 'cancel' });
    expect((await ordersOf(user))[0]).toMatchObject({ id: orderId, status: 'canceled' });
  });
});
