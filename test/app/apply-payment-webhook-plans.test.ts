/**
 * PayPal's webhooks about plans (the plan paths of applyPaymentWebhook): each completed billing payment granted once
 * by its sale id whatever arrives first, renewals capped by the rollover rule, nothing granted while suspended, and a
 * refunded or reversed billing payment taking back that payment's credits only.
 * In-memory ports (test/support/fakes/subscriptions.ts).
 */
import { PLANS, planCreditsAfterGrant } from '../../contract/plans';
import { applyPaymentWebhook } from '../../lambdas/app/apply-payment-webhook';
import { changeSubscription } from '../../lambdas/app/change-subscription';
import { getSubscription } from '../../lambdas/app/get-subscription';
import { subscribe } from '../../lambdas/app/subscribe';
import { creditsFor } from '../../lambdas/domain/money-rules';
import type { ProviderSale } from '../../lambdas/ports/subscriptions';
import { Messages } from '../../contract/errors';
import { expectBooksBalanced } from '../support/fakes/credits';
import { BUYER, paypalDelivery } from '../support/fakes/payments';
import { subscribed, subscriptionsSetup, type SubscriptionsContext } from '../support/fakes/subscriptions';

const STARTER = PLANS[0]!;
const MONTH = 31 * 24 * 3600 * 1000;

/** PayPal's events as it sends them: a v1 sale, a sale's refund (a negative total), a subscription. */
const saleCompleted = (id: string, subscriptionId: string, sale: Pick<ProviderSale, 'id' | 'amount' | 'time'>) =>
  paypalDelivery({
    id,
    event_type: 'PAYMENT.SALE.COMPLETED',
    resource: { id: sale.id, state: 'completed', amount: { total: sale.amount.value, currency: sale.amount.currency }, billing_agreement_id: subscriptionId, create_time: sale.time },
  });
const saleRefunded = (id: string, subscriptionId: string, saleId: string, refund: { id: string; amount: { value: string } }, type = 'PAYMENT.SALE.REFUNDED') =>
  paypalDelivery({
    id,
    event_type: type,
    resource: { id: refund.id, state: 'completed', amount: { total: `-${refund.amount.value}`, currency: 'USD' }, sale_id: saleId, billing_agreement_id: subscriptionId },
  });
const subscriptionEvent = (id: string, type: string, subscriptionId: string) => paypalDelivery({ id, event_type: type, resource: { id: subscriptionId } });

/** BUYER subscribed to Starter and approved at PayPal, the return not seen yet: what PayPal's webhooks bring. */
async function approvedNotReturned(ctx: SubscriptionsContext) {
  await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id });
  const id = (await ctx.subscriptions.get(BUYER.sub))!.id;
  return { id, sale: ctx.subscriptionPaypal.approve(id) };
}

const rows = (ctx: SubscriptionsContext) => ctx.credits.rowsOf(BUYER.sub).map((l) => [l.reason, l.delta, l.plan ?? 0]);

describe('applyPaymentWebhook: plans', () => {
  it('PAYMENT.SALE.COMPLETED grants once: a redelivery is a duplicate, the same sale again or through the page the buyer lands on is already granted', async () => {
    const ctx = subscriptionsSetup();
    const { id, sale } = await approvedNotReturned(ctx);
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-S1', id, sale))).toEqual({ handled: 'granted', eventType: 'PAYMENT.SALE.COMPLETED' });
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-S1', id, sale))).toEqual({ handled: 'duplicate' });
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-S2', id, sale))).toEqual({ handled: 'already-granted', eventType: 'PAYMENT.SALE.COMPLETED' });
    expect((await getSubscription(ctx.deps, BUYER.sub)).status).toBe('active');
    expect(rows(ctx)).toEqual([
      ['welcome', 10, 0],
      ['plan', STARTER.credits, STARTER.credits],
    ]);
    expect(ctx.mails).toHaveLength(1);
    expect(ctx.inbox.claims.get('WH-S1')).toEqual({ eventType: 'PAYMENT.SALE.COMPLETED', orderId: sale.id, outcome: 'granted' });
  });

  it('in any order: BILLING.SUBSCRIPTION.ACTIVATED first grants what PayPal lists, the sale event after finds it granted', async () => {
    const ctx = subscriptionsSetup();
    const { id, sale } = await approvedNotReturned(ctx);
    expect(await applyPaymentWebhook(ctx.deps, subscriptionEvent('WH-A', 'BILLING.SUBSCRIPTION.ACTIVATED', id))).toEqual({
      handled: 'subscription-active',
      eventType: 'BILLING.SUBSCRIPTION.ACTIVATED',
    });
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-S', id, sale))).toMatchObject({ handled: 'already-granted' });
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10 + STARTER.credits, planCredits: STARTER.credits });
  });

  it('in any order: the sale event before the subscription is known active grants it, ACTIVATED after grants nothing more', async () => {
    const ctx = subscriptionsSetup();
    const { id, sale } = await approvedNotReturned(ctx);
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-S', id, sale))).toMatchObject({ handled: 'granted' });
    // The sale event reads the plan at PayPal too (its next billing): active already.
    expect((await ctx.subscriptions.get(BUYER.sub))!.status).toBe('active');
    expect(await applyPaymentWebhook(ctx.deps, subscriptionEvent('WH-A', 'BILLING.SUBSCRIPTION.ACTIVATED', id))).toMatchObject({ handled: 'subscription-active' });
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10 + STARTER.credits, planCredits: STARTER.credits });
    expect(ctx.mails).toHaveLength(1);
  });

  it('ignores sales and subscriptions that are not ours, and a payment that pays for no plan', async () => {
    const ctx = subscriptionsSetup();
    const { id, sale } = await approvedNotReturned(ctx);
    const stranger = { id: 'SALE9999999999999', amount: { currency: 'USD', value: STARTER.price }, time: sale.time };
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-1', 'I-NOTOURS00001', stranger))).toMatchObject({ handled: 'ignored' });
    expect(await applyPaymentWebhook(ctx.deps, subscriptionEvent('WH-2', 'BILLING.SUBSCRIPTION.ACTIVATED', 'I-NOTOURS00001'))).toMatchObject({ handled: 'unknown-subscription' });
    const odd = { ...stranger, amount: { currency: 'USD', value: '1.23' } };
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-3', id, odd))).toMatchObject({ handled: 'ignored' });
    expect(ctx.credits.balances(BUYER.sub).credits).toBe(10);
    expect(ctx.logs.map((l) => l.message)).toEqual(['A billing payment of a subscription we did not make', 'A billing payment that pays for no plan of ours']);
  });

  it('renewals: what was left rolls over at most one month, the rest expires on its own ledger row', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    // 50 credits spent in the first month: plan credits first.
    ctx.credits.change({ sub: BUYER.sub, delta: -50, reason: 'image', ref: 'job-1', at: ctx.clock.now().toISOString() });
    let plan = STARTER.credits - 50;
    for (let month = 1; month <= 3; month++) {
      ctx.clock.advance(MONTH);
      const sale = ctx.subscriptionPaypal.bill(id, 'completed')!;
      expect(await applyPaymentWebhook(ctx.deps, saleCompleted(`WH-R${month}`, id, sale))).toMatchObject({ handled: 'granted' });
      plan = planCreditsAfterGrant(plan, STARTER.credits);
      expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ planCredits: plan, packCredits: 10 });
    }
    expect(plan).toBe(2 * STARTER.credits);
    expect(rows(ctx)).toEqual([
      ['welcome', 10, 0],
      ['plan', 120, 120],
      ['image', -50, -50],
      ['plan', 120, 120],
      ['plan-expiry', -70, -70],
      ['plan', 120, 120],
      ['plan-expiry', -120, -120],
      ['plan', 120, 120],
    ]);
    expectBooksBalanced(ctx.credits);
  });

  it('a failed payment then suspension grants nothing; paid again, the outstanding months are granted within the rollover cap', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    const paypal = ctx.subscriptionPaypal;
    ctx.clock.advance(MONTH);
    paypal.bill(id, 'failed');
    expect(await applyPaymentWebhook(ctx.deps, subscriptionEvent('WH-F1', 'BILLING.SUBSCRIPTION.PAYMENT.FAILED', id))).toMatchObject({ handled: 'subscription-active' });
    expect((await getSubscription(ctx.deps, BUYER.sub)).problem).toMatch(/will try again/);
    paypal.bill(id, 'failed');
    paypal.bill(id, 'failed');
    expect(await applyPaymentWebhook(ctx.deps, subscriptionEvent('WH-SU', 'BILLING.SUBSCRIPTION.SUSPENDED', id))).toMatchObject({ handled: 'subscription-suspended' });
    expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ status: 'suspended', planCredits: STARTER.credits, problem: Messages.subscriptionSuspended });
    expect(rows(ctx).filter(([r]) => r === 'plan')).toHaveLength(1);

    // The buyer fixes their funding: PayPal collects the three months outstanding in one payment.
    const collected = paypal.reactivate(id)!;
    expect(collected.amount.value).toBe('29.97');
    expect(await applyPaymentWebhook(ctx.deps, subscriptionEvent('WH-RE', 'BILLING.SUBSCRIPTION.ACTIVATED', id))).toMatchObject({ handled: 'subscription-active' });
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-S', id, collected))).toMatchObject({ handled: 'already-granted' });
    const view = await getSubscription(ctx.deps, BUYER.sub);
    expect(view).toMatchObject({ status: 'active', planCredits: STARTER.credits + 3 * STARTER.credits, packCredits: 10 });
    expect(view.problem).toBeUndefined();
    expectBooksBalanced(ctx.credits);
  });

  it('a refunded billing payment takes back that payment\u2019s credits only, plan credits first, once', async () => {
    const ctx = subscriptionsSetup();
    const { id, firstSale } = await subscribed(ctx, STARTER.id);
    ctx.clock.advance(MONTH);
    const renewal = ctx.subscriptionPaypal.bill(id, 'completed')!;
    await applyPaymentWebhook(ctx.deps, saleCompleted('WH-S2', id, renewal));
    const refund = ctx.subscriptionPaypal.refund(renewal.id);
    expect(await applyPaymentWebhook(ctx.deps, saleRefunded('WH-R1', id, renewal.id, refund))).toEqual({ handled: 'taken-back', eventType: 'PAYMENT.SALE.REFUNDED' });
    expect(await applyPaymentWebhook(ctx.deps, saleRefunded('WH-R1b', id, renewal.id, refund))).toMatchObject({ handled: 'already-applied' });
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10 + STARTER.credits, planCredits: STARTER.credits });
    expect(ctx.orders.orders.get(renewal.id)).toMatchObject({ status: 'refunded', creditsTakenBack: STARTER.credits });
    expect(ctx.orders.orders.get(firstSale.id)).toMatchObject({ status: 'captured' });
    expect(ctx.orders.orders.get(firstSale.id)!.creditsTakenBack).toBeUndefined();

    // Half of the first payment: its share of that payment's credits, plan credits first, the pack credits kept.
    const half = ctx.subscriptionPaypal.refund(firstSale.id, '5.00');
    await applyPaymentWebhook(ctx.deps, saleRefunded('WH-R2', id, firstSale.id, half));
    const back = creditsFor(STARTER.credits, 500, STARTER.cents);
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10 + STARTER.credits - back, planCredits: STARTER.credits - back });
    expect(rows(ctx).slice(-2)).toEqual([
      ['purchase-refund', -STARTER.credits, -STARTER.credits],
      ['purchase-refund', -back, -back],
    ]);
    expectBooksBalanced(ctx.credits);
  });

  it('plan credits already spent: the claw-back takes the rest from the balance, which may go below zero', async () => {
    const ctx = subscriptionsSetup();
    const { id, firstSale } = await subscribed(ctx, STARTER.id);
    ctx.credits.change({ sub: BUYER.sub, delta: -125, reason: 'video', ref: 'job-1', at: ctx.clock.now().toISOString() });
    const refund = ctx.subscriptionPaypal.refund(firstSale.id);
    await applyPaymentWebhook(ctx.deps, saleRefunded('WH-R', id, firstSale.id, refund, 'PAYMENT.SALE.REVERSED'));
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10 - 125, planCredits: 0 });
    expect(rows(ctx).at(-1)).toEqual(['chargeback', -STARTER.credits, 0]);
    expect(ctx.orders.orders.get(firstSale.id)!.status).toBe('reversed');
  });

  it('a refund that overtakes its sale grants it first, then takes it back; the sale event after changes nothing', async () => {
    const ctx = subscriptionsSetup();
    const { id, sale } = await approvedNotReturned(ctx);
    const refund = ctx.subscriptionPaypal.refund(sale.id);
    expect(await applyPaymentWebhook(ctx.deps, saleRefunded('WH-R', id, sale.id, refund))).toMatchObject({ handled: 'taken-back' });
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-S', id, sale))).toMatchObject({ handled: 'already-granted' });
    expect(rows(ctx)).toEqual([
      ['welcome', 10, 0],
      ['plan', STARTER.credits, STARTER.credits],
      ['purchase-refund', -STARTER.credits, -STARTER.credits],
    ]);
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10, planCredits: 0 });
  });

  it('cancelled from PayPal: the plan shows cancelled, what was granted stays', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    ctx.subscriptionPaypal.cancelAtPaypal(id);
    expect(await applyPaymentWebhook(ctx.deps, subscriptionEvent('WH-C', 'BILLING.SUBSCRIPTION.CANCELLED', id))).toMatchObject({ handled: 'subscription-cancelled' });
    expect(await getSubscription(ctx.deps, BUYER.sub)).toEqual({ id, planId: STARTER.id, status: 'cancelled', planCredits: STARTER.credits, packCredits: 10 });
  });

  it('a year of monthly cycles ends with exactly the credits the plan and its rollover rule give, each explained by the ledger', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    let plan = STARTER.credits;
    let spent = 0;
    for (let month = 1; month < 12; month++) {
      // Some months spend, some do not: 30 credits in odd months.
      if (month % 2) {
        ctx.credits.change({ sub: BUYER.sub, delta: -30, reason: 'image', ref: `job-${month}`, at: ctx.clock.now().toISOString() });
        plan -= 30;
        spent += 30;
      }
      ctx.clock.advance(MONTH);
      const sale = ctx.subscriptionPaypal.bill(id, 'completed')!;
      await applyPaymentWebhook(ctx.deps, saleCompleted(`WH-${month}`, id, sale));
      plan = planCreditsAfterGrant(plan, STARTER.credits);
    }
    const expired = -ctx.credits.rowsOf(BUYER.sub).filter((l) => l.reason === 'plan-expiry').reduce((s, l) => s + l.delta, 0);
    expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ planCredits: plan, packCredits: 10 });
    expect(12 * STARTER.credits - spent - expired).toBe(plan);
    expect(ctx.credits.rowsOf(BUYER.sub).filter((l) => l.reason === 'plan')).toHaveLength(12);
    expectBooksBalanced(ctx.credits);
  });

  it('a renewal billed in the same second as the month before was granted keeps that month (PayPal times are to the second; journey seen under load)', async () => {
    const ctx = subscriptionsSetup();
    ctx.clock.advance(500 - (ctx.clock.now().getTime() % 1000));
    const { id } = await subscribed(ctx, STARTER.id);
    await changeSubscription(ctx.deps, BUYER.sub, { planId: PLANS[1]!.id });
    ctx.subscriptionPaypal.approveRevision(id);
    await applyPaymentWebhook(ctx.deps, subscriptionEvent('WH-UPD-S', 'BILLING.SUBSCRIPTION.UPDATED', id));
    ctx.clock.advance(300);
    const renewal = ctx.subscriptionPaypal.bill(id, 'completed')!;
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-R', id, renewal))).toMatchObject({ handled: expect.stringMatching(/granted/) });
    // The Starter month (120) is kept whole under the cap of one Creator month: nothing expires.
    expect(ctx.credits.rowsOf(BUYER.sub).map((l) => l.reason)).toEqual(['welcome', 'plan', 'plan']);
    expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ planCredits: STARTER.credits + PLANS[1]!.credits });
    expectBooksBalanced(ctx.credits);
  });

  it('a payment of months left outstanding on the earlier plan, arriving after a plan change, is granted at that plan (money simulation, seed 1)', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    ctx.subscriptionPaypal.bill(id, 'failed');
    const twoMonths = ctx.subscriptionPaypal.bill(id, 'completed')!;
    expect(twoMonths.amount.value).toBe('19.98');
    // The buyer changes to Creator ($19.99) before the payment's webhook arrives.
    await changeSubscription(ctx.deps, BUYER.sub, { planId: PLANS[1]!.id });
    ctx.subscriptionPaypal.approveRevision(id);
    await applyPaymentWebhook(ctx.deps, subscriptionEvent('WH-UPD', 'BILLING.SUBSCRIPTION.UPDATED', id));
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-2M', id, twoMonths))).toMatchObject({ handled: expect.stringMatching(/granted/) });
    expect(ctx.credits.rowsOf(BUYER.sub).filter((l) => l.ref === twoMonths.id).map((l) => [l.reason, l.delta])).toEqual([['plan', 2 * STARTER.credits]]);
    expectBooksBalanced(ctx.credits);
  });
});
