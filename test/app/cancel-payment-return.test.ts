/**
 * The buyer cancelled on PayPal: the order shows canceled and the browser goes back to its page; a later approval
 * still credits it.
 * In-memory ports (test/support/fakes/payments.ts).
 */
import { createPayment } from '../../lambdas/app/create-payment';
import { cancelPaymentReturn } from '../../lambdas/app/cancel-payment-return';
import { settleOrder } from '../../lambdas/app/steps/settle-order';
import { paymentsSetup, BUYER, MemoryOrders } from '../support/fakes/payments';

describe('cancelPaymentReturn', () => {
  it("goes back to the order's page with payment=cancel and marks the order canceled; a later approval still credits it", async () => {
    const ctx = paymentsSetup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72, returnPath: '/generator' });
    expect(await cancelPaymentReturn(ctx.deps, orderId)).toEqual({ outcome: { payment: 'cancel', order: orderId }, returnPath: '/generator' });
    expect(ctx.orders.orders.get(orderId)).toMatchObject({ status: 'canceled', statusAt: '2026-01-02T03:04:05.000Z' });
    expect(ctx.paypal.captureCalls).toBe(0);
    ctx.paypal.approve(orderId);
    expect(await settleOrder(ctx.deps, orderId, 'capture')).toMatchObject({ result: 'credited' });
    // A cancel after payment changes nothing.
    await cancelPaymentReturn(ctx.deps, orderId);
    expect(ctx.orders.orders.get(orderId)!.status).toBe('captured');
  });

  it("an unknown order, or a table that does not answer, goes back to '/'", async () => {
    const ctx = paymentsSetup();
    expect(await cancelPaymentReturn(ctx.deps, 'NOSUCHORDER00')).toEqual({ outcome: { payment: 'cancel' }, returnPath: '/' });
    const broken = { log: ctx.deps.log, now: ctx.deps.now, orders: Object.assign(Object.create(ctx.orders) as MemoryOrders, { get: async () => Promise.reject(new Error('table down')) }) };
    expect(await cancelPaymentReturn(broken, 'ORDER000000000001')).toEqual({ outcome: { payment: 'cancel' }, returnPath: '/' });
    expect(ctx.logs).toEqual([expect.objectContaining({ message: 'Payment cancel could not read the order' })]);
  });
});
