/**
 * The buyer back from PayPal: the order captured and credited once (the settle step the webhook and the reconciler
 * share), held or declined captures, captures that are not what we sold, and where the browser is sent.
 * In-memory ports (test/support/fakes/payments.ts).
 */
import { createPayment } from '../../lambdas/app/create-payment';
import { settlePaymentReturn } from '../../lambdas/app/settle-payment-return';
import { settleOrder } from '../../lambdas/app/steps/settle-order';
import { type ProviderOrder } from '../../lambdas/ports/payments';
import { paymentsSetup, BUYER, type PaymentsContext } from '../support/fakes/payments';

describe('settleOrder', () => {
  async function approvedOrder(ctx: PaymentsContext, approve = true) {
    const { orderId } = await createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '13.99', credits: 150 });
    if (approve) ctx.paypal.approve(orderId);
    return orderId;
  }

  it('captures and credits once; later calls do not even ask PayPal', async () => {
    const ctx = paymentsSetup();
    const id = await approvedOrder(ctx);
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'credited', balance: 150 });
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'already-credited' });
    expect(await settleOrder(ctx.deps, id, 'check')).toMatchObject({ result: 'already-credited' });
    expect(ctx.paypal.captureCalls).toBe(1);
    expect(ctx.credits.ledger).toEqual([expect.objectContaining({ reason: 'purchase', delta: 150, balance: 150, ref: id })]);
    expect(ctx.orders.orders.get(id)).toMatchObject({ status: 'captured', captureId: `CAP-${id}` });
  });

  it('reads the order when PayPal says it was already captured, and credits it', async () => {
    const ctx = paymentsSetup();
    const id = await approvedOrder(ctx);
    await ctx.paypal.captureOrder(id); // captured elsewhere (another Lambda, before it could record it)
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'credited', balance: 150 });
  });

  it('does nothing for unknown and unapproved orders', async () => {
    const ctx = paymentsSetup();
    expect(await settleOrder(ctx.deps, 'NOSUCHORDER', 'capture')).toEqual({ result: 'unknown-order' });
    expect(ctx.paypal.captureCalls).toBe(0);
    const id = await approvedOrder(ctx, false);
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'not-approved' });
    expect(await settleOrder(ctx.deps, id, 'check')).toMatchObject({ result: 'pending' });
    expect(ctx.credits.ledger).toHaveLength(0);
  });

  it('waits for a pending capture, then credits when PayPal completes it', async () => {
    const ctx = paymentsSetup();
    const id = await approvedOrder(ctx);
    ctx.paypal.captureAs = 'PENDING';
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'pending' });
    expect(ctx.credits.ledger).toHaveLength(0);
    ctx.paypal.completePendingCapture(id);
    expect(await settleOrder(ctx.deps, id, 'check')).toMatchObject({ result: 'credited', balance: 150 });
  });

  it.each([
    ['a different amount', (o: ProviderOrder) => (o.captures[0]!.amount = { currency: 'USD', value: '0.01' })],
    ['a different currency', (o: ProviderOrder) => (o.captures[0]!.amount = { currency: 'EUR', value: '13.99' })],
    ['another buyer', (o: ProviderOrder) => (o.captures[0]!.customId = 'someone-else')],
    ['no buyer', (o: ProviderOrder) => (o.captures[0]!.customId = undefined)],
    ['another order', (o: ProviderOrder) => (o.id = 'OTHERORDER0000000')],
  ])('never credits a capture for %s', async (_what, tamper) => {
    const ctx = paymentsSetup();
    const id = await approvedOrder(ctx);
    ctx.paypal.tamper = (o) => {
      tamper(o);
      o.customId = o.captures[0]!.customId;
    };
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'refused' });
    expect(ctx.credits.ledger).toHaveLength(0);
    expect(ctx.orders.orders.get(id)).toMatchObject({ status: 'failed', failReason: expect.any(String) });
    expect(ctx.logs).toEqual([expect.objectContaining({ message: 'PayPal order not credited' })]);
    expect(ctx.mails).toHaveLength(0);
  });

  it('a declined capture fails the order and never credits it, even when PayPal later says COMPLETED', async () => {
    const ctx = paymentsSetup();
    const id = await approvedOrder(ctx);
    ctx.paypal.captureAs = 'DECLINED';
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'refused' });
    expect(ctx.orders.orders.get(id)!.status).toBe('failed');
    ctx.paypal.completePendingCapture(id);
    expect(await settleOrder(ctx.deps, id, 'check')).toMatchObject({ result: 'refused' });
    expect(ctx.credits.ledger).toHaveLength(0);
  });

  it('INSTRUMENT_DECLINED sends the buyer back to the approval page; the order stays open', async () => {
    const ctx = paymentsSetup();
    const id = await approvedOrder(ctx);
    ctx.paypal.captureAs = 'INSTRUMENT_DECLINED';
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'retry-approval', approvalUrl: `https://paypal.test/checkoutnow?token=${id}` });
    expect(ctx.orders.orders.get(id)!.status).toBe('created');
    ctx.paypal.captureAs = 'COMPLETED';
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'credited' });
  });

  it('a pending capture marks the order pending; crediting mails one receipt with the capture id', async () => {
    const ctx = paymentsSetup();
    const id = await approvedOrder(ctx);
    ctx.paypal.captureAs = 'PENDING';
    await settleOrder(ctx.deps, id, 'capture');
    expect(ctx.orders.orders.get(id)!.status).toBe('pending');
    ctx.paypal.completePendingCapture(id);
    await Promise.all([settleOrder(ctx.deps, id, 'check'), settleOrder(ctx.deps, id, 'check')]);
    expect(ctx.mails).toHaveLength(1);
    expect(ctx.mails[0]!.to).toEqual([BUYER.email]);
    for (const part of ['$13.99', 'USD', '150', `CAP-${id}`, '2026-01-02T03:04:05.000Z']) expect(ctx.mails[0]!.text).toContain(part);
  });
});

describe('settlePaymentReturn', () => {
  const home = (outcome: Record<string, unknown>) => ({ outcome, returnPath: '/' });

  it('sends the buyer to success with the owner and credits, pending while PayPal is down, error otherwise', async () => {
    const ctx = paymentsSetup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72 });
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(home({ payment: 'error', order: orderId }));
    ctx.paypal.approve(orderId);
    ctx.paypal.down = true;
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(home({ payment: 'pending', order: orderId }));
    ctx.paypal.down = false;
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(home({ payment: 'success', order: orderId }));
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(home({ payment: 'success', order: orderId }));
    expect(ctx.credits.ledger).toHaveLength(1);
    expect(await settlePaymentReturn(ctx.deps, 'NOSUCHORDER00')).toEqual(home({ payment: 'error' }));
  });

  it("goes back to the order's page whatever the outcome", async () => {
    const ctx = paymentsSetup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72, returnPath: '/video-generator/wan' });
    const back = (outcome: Record<string, unknown>) => ({ outcome, returnPath: '/video-generator/wan' });
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(back({ payment: 'error', order: orderId }));
    ctx.paypal.approve(orderId);
    ctx.paypal.down = true;
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(back({ payment: 'pending', order: orderId }));
    ctx.paypal.down = false;
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(back({ payment: 'success', order: orderId }));
  });

  it("an order stored without a return path (before it existed) goes back to '/'", async () => {
    const ctx = paymentsSetup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72, returnPath: '/admin' });
    delete ctx.orders.orders.get(orderId)!.returnPath;
    ctx.paypal.approve(orderId);
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(home({ payment: 'success', order: orderId }));
  });

  it('a declined funding source goes back to PayPal\u2019s approval page', async () => {
    const ctx = paymentsSetup();
    const { orderId, paymentUrl } = await createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    ctx.paypal.captureAs = 'INSTRUMENT_DECLINED';
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual({ approvalUrl: paymentUrl });
  });
});
