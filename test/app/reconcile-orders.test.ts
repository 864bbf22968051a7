/**
 * The order reconciler: an approved order PayPal could not capture at the return is captured once when PayPal is
 * back; unapproved orders leave the open list after their approval window; held captures are read, not retaken.
 * In-memory ports (test/support/fakes/payments.ts).
 */
import { createPayment } from '../../lambdas/app/create-payment';
import { settlePaymentReturn } from '../../lambdas/app/settle-payment-return';
import { getPaymentOutcome } from '../../lambdas/app/get-payment-outcome';
import { reconcileOrders } from '../../lambdas/app/reconcile-orders';
import { paymentsSetup, BUYER, type PaymentsContext } from '../support/fakes/payments';

describe('reconcileOrders', () => {
  const order = (ctx: PaymentsContext) => createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72 }).then((r) => r.orderId);
  const outcomeDeps = (ctx: PaymentsContext) => ({ orders: ctx.orders, accounts: ctx.deps.accounts, now: ctx.deps.now });

  it('a return that could not reach PayPal says pending; the reconciler captures once PayPal is back, and only once', async () => {
    const ctx = paymentsSetup();
    const id = await order(ctx);
    ctx.paypal.approve(id);
    ctx.paypal.down = true;
    expect(await settlePaymentReturn(ctx.deps, id)).toMatchObject({ outcome: { payment: 'pending', order: id } });
    expect(await getPaymentOutcome(outcomeDeps(ctx), id)).toEqual({ outcome: 'pending' });
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 1, settled: { unreachable: 1 } });
    ctx.paypal.down = false;
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 1, settled: { credited: 1 } });
    expect(await getPaymentOutcome(outcomeDeps(ctx), id)).toMatchObject({ outcome: 'success', credits: 72 });
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 0, settled: {} });
    expect(ctx.credits.ledger.filter((l) => l.ref === id)).toHaveLength(1);
  });

  it('an unapproved order stays open (outcome error) until its approval window is over, then leaves the open list', async () => {
    const ctx = paymentsSetup();
    const id = await order(ctx);
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 1, settled: { 'not-approved': 1 } });
    expect(await getPaymentOutcome(outcomeDeps(ctx), id)).toEqual({ outcome: 'error' });
    const later = { ...ctx.deps, now: () => new Date(Date.parse('2026-01-02T03:04:05.000Z') + 4 * 3_600_000) };
    expect(await reconcileOrders(later)).toEqual({ open: 1, settled: { closed: 1 } });
    expect(await reconcileOrders(later)).toEqual({ open: 0, settled: {} });
    expect(ctx.credits.ledger.filter((l) => l.ref === id)).toHaveLength(0);
  });

  it('a held capture is read, not captured again, and credited when PayPal completes it', async () => {
    const ctx = paymentsSetup();
    const id = await order(ctx);
    ctx.paypal.approve(id);
    ctx.paypal.captureAs = 'PENDING';
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 1, settled: { pending: 1 } });
    const calls = ctx.paypal.captureCalls;
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 1, settled: { pending: 1 } });
    expect(ctx.paypal.captureCalls).toBe(calls);
    ctx.paypal.orders.get(id)!.captures[0]!.status = 'COMPLETED';
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 1, settled: { credited: 1 } });
    expect(ctx.credits.ledger.filter((l) => l.ref === id)).toHaveLength(1);
  });
});
