/**
 * The plans' reconciler (reconcile-subscriptions): whatever PayPal's webhooks and the buyer's return did or did not
 * bring, every completed billing payment PayPal lists is granted once (by its sale id), every refunded one taken back
 * once, and a month granted late keeps the credits it would have had on time (the rollover cap as of the sale's date).
 * In-memory ports (test/support/fakes/subscriptions.ts); PayPal's webhooks here are "lost": none is delivered.
 */
import { PLANS, planCreditsAfterGrant } from '../../contract/plans';
import { applyPaymentWebhook } from '../../lambdas/app/apply-payment-webhook';
import { reconcileSubscriptions, UNGRANTED_ALARM_MS } from '../../lambdas/app/reconcile-subscriptions';
import { subscribe } from '../../lambdas/app/subscribe';
import { expectBooksBalanced } from '../support/fakes/credits';
import { BUYER, paypalDelivery } from '../support/fakes/payments';
import { subscribed, subscriptionsSetup, type SubscriptionsContext } from '../support/fakes/subscriptions';

const STARTER = PLANS[0]!;
const DAY = 24 * 3600 * 1000;
const MONTH = 31 * DAY;

const rows = (ctx: SubscriptionsContext) => ctx.credits.rowsOf(BUYER.sub).map((l) => [l.reason, l.delta, l.plan ?? 0]);
const run = (ctx: SubscriptionsContext) => reconcileSubscriptions(ctx.deps);

describe('reconcileSubscriptions', () => {
  it('approved at PayPal, the return and every webhook lost: the plan becomes active and its first month is granted, once', async () => {
    const ctx = subscriptionsSetup();
    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id });
    const id = (await ctx.subscriptions.get(BUYER.sub))!.id;
    ctx.subscriptionPaypal.approve(id);
    ctx.clock.advance(10 * 60_000);

    expect(await run(ctx)).toMatchObject({ plans: 1, granted: 1, takenBack: 0, overdue: 0 });
    expect((await ctx.subscriptions.get(BUYER.sub))!.status).toBe('active');
    expect(await run(ctx)).toMatchObject({ plans: 1, granted: 0, takenBack: 0 });
    expect(rows(ctx)).toEqual([
      ['welcome', 10, 0],
      ['plan', STARTER.credits, STARTER.credits],
    ]);
    expect(ctx.mails).toHaveLength(1);
    expectBooksBalanced(ctx.credits);
  });

  it("a month's sale whose webhook was lost is granted by the next run, once; its webhook arriving after grants nothing more", async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    ctx.clock.advance(MONTH);
    const renewal = ctx.subscriptionPaypal.bill(id, 'completed')!;
    ctx.clock.advance(5 * 60_000);

    expect(await run(ctx)).toMatchObject({ granted: 1 });
    expect(await run(ctx)).toMatchObject({ granted: 0 });
    const late = paypalDelivery({
      id: 'WH-LATE',
      event_type: 'PAYMENT.SALE.COMPLETED',
      resource: { id: renewal.id, state: 'completed', amount: { total: renewal.amount.value, currency: 'USD' }, billing_agreement_id: id, create_time: renewal.time },
    });
    expect(await applyPaymentWebhook(ctx.deps, late)).toMatchObject({ handled: 'already-granted' });
    expect(rows(ctx).filter(([r]) => r === 'plan')).toHaveLength(2);
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10 + 2 * STARTER.credits, planCredits: 2 * STARTER.credits });
    expectBooksBalanced(ctx.credits);
  });

  it('a refunded sale (its webhook lost) is taken back once; the refund webhook arriving after takes nothing more', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    ctx.clock.advance(MONTH);
    const renewal = ctx.subscriptionPaypal.bill(id, 'completed')!;
    expect(await run(ctx)).toMatchObject({ granted: 1, takenBack: 0 });
    const refund = ctx.subscriptionPaypal.refund(renewal.id);

    expect(await run(ctx)).toMatchObject({ granted: 0, takenBack: 1 });
    expect(await run(ctx)).toMatchObject({ granted: 0, takenBack: 0 });
    const late = paypalDelivery({
      id: 'WH-REFUND',
      event_type: 'PAYMENT.SALE.REFUNDED',
      resource: { id: refund.id, state: 'completed', amount: { total: `-${refund.amount.value}`, currency: 'USD' }, sale_id: renewal.id, billing_agreement_id: id },
    });
    await applyPaymentWebhook(ctx.deps, late);
    expect(ctx.orders.orders.get(renewal.id)).toMatchObject({ status: 'refunded', creditsTakenBack: STARTER.credits });
    expect(rows(ctx).filter(([r]) => r === 'purchase-refund')).toEqual([['purchase-refund', -STARTER.credits, -STARTER.credits]]);
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10 + STARTER.credits, planCredits: STARTER.credits });
    expectBooksBalanced(ctx.credits);
  });

  it('a sale refunded before anything granted it is granted, then taken back, once', async () => {
    const ctx = subscriptionsSetup();
    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id });
    const id = (await ctx.subscriptions.get(BUYER.sub))!.id;
    const sale = ctx.subscriptionPaypal.approve(id);
    ctx.subscriptionPaypal.refund(sale.id);
    expect(await run(ctx)).toMatchObject({ granted: 1, takenBack: 1 });
    expect(await run(ctx)).toMatchObject({ granted: 0, takenBack: 0 });
    expect(rows(ctx)).toEqual([
      ['welcome', 10, 0],
      ['plan', STARTER.credits, STARTER.credits],
      ['purchase-refund', -STARTER.credits, -STARTER.credits],
    ]);
  });

  it('a partial refund whose amount PayPal\u2019s list does not give: nothing guessed, counted for support', async () => {
    const ctx = subscriptionsSetup();
    const { firstSale } = await subscribed(ctx, STARTER.id);
    ctx.subscriptionPaypal.refund(firstSale.id, '1.00');
    expect(await run(ctx)).toMatchObject({ takenBack: 0, refundUnknown: 1 });
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10 + STARTER.credits, planCredits: STARTER.credits });
    expect(ctx.logs.map((l) => l.message)).toContain('A partly refunded billing payment whose refund we have not seen');
  });

  it('late grant: the rollover cap as of the sale, so the month holds what it would have had on time', async () => {
    // On time: month 1 (120), month 2 on time (rolls over, 240), month 3's webhook lost; 100 credits of plan credits
    // spent after month 3's sale; the reconciler runs three days later.
    const onTime = subscriptionsSetup();
    const late = subscriptionsSetup();
    for (const ctx of [onTime, late]) {
      const { id } = await subscribed(ctx, STARTER.id);
      ctx.clock.advance(MONTH);
      const m2 = ctx.subscriptionPaypal.bill(id, 'completed')!;
      await run(ctx);
      expect(ctx.orders.orders.has(m2.id)).toBe(true);
      ctx.clock.advance(MONTH);
      ctx.subscriptionPaypal.bill(id, 'completed');
      if (ctx === onTime) await run(ctx);
      ctx.clock.advance(DAY);
      ctx.credits.change({ sub: BUYER.sub, delta: -100, reason: 'image', ref: 'job-1', at: ctx.clock.now().toISOString() });
      ctx.clock.advance(2 * DAY);
    }
    expect(await run(late)).toMatchObject({ granted: 1 });
    const wouldHave = planCreditsAfterGrant(planCreditsAfterGrant(STARTER.credits, STARTER.credits), STARTER.credits) - 100;
    expect(onTime.credits.balances(BUYER.sub)).toEqual({ credits: 10 + wouldHave, planCredits: wouldHave });
    expect(late.credits.balances(BUYER.sub)).toEqual(onTime.credits.balances(BUYER.sub));
    expectBooksBalanced(late.credits);
  });

  it('late grant: purchased credits spent while the month was missing come back with it', async () => {
    // Month 1's plan credits all spent, 50 credits bought, month 2's webhook lost: a 50-credit video is paid with
    // bought credits, where on time month 2's plan credits would have paid it.
    const onTime = subscriptionsSetup();
    const late = subscriptionsSetup();
    for (const ctx of [onTime, late]) {
      const { id } = await subscribed(ctx, STARTER.id);
      ctx.credits.change({ sub: BUYER.sub, delta: -STARTER.credits, reason: 'image', ref: 'job-1', at: ctx.clock.now().toISOString() });
      ctx.credits.change({ sub: BUYER.sub, delta: 50, reason: 'purchase', ref: 'order-1', at: ctx.clock.now().toISOString() });
      ctx.clock.advance(MONTH);
      ctx.subscriptionPaypal.bill(id, 'completed');
      if (ctx === onTime) await run(ctx);
      ctx.clock.advance(DAY);
      expect(ctx.credits.change({ sub: BUYER.sub, delta: -50, reason: 'video', ref: 'job-2', at: ctx.clock.now().toISOString() })).toMatchObject({ ok: true });
      ctx.clock.advance(2 * DAY);
    }
    expect(late.credits.balances(BUYER.sub).credits).toBe(10);
    await run(late);
    expect(late.credits.balances(BUYER.sub).credits).toBe(onTime.credits.balances(BUYER.sub).credits);
    expect(late.credits.balances(BUYER.sub).credits).toBe(10 + 50 + STARTER.credits - 50);
    expectBooksBalanced(late.credits);
  });

  it('a completed sale that cannot be granted for an hour is counted overdue (the alarm); PayPal down: unreachable, nothing lost', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    ctx.clock.advance(MONTH);
    ctx.subscriptionPaypal.bill(id, 'completed');
    ctx.subscriptionPaypal.down = true;
    expect(await run(ctx)).toMatchObject({ granted: 0, unreachable: 1 });
    ctx.subscriptionPaypal.down = false;
    ctx.credits.down = true;
    ctx.clock.advance(UNGRANTED_ALARM_MS / 2);
    expect(await run(ctx)).toMatchObject({ granted: 0, overdue: 0, failed: 1 });
    ctx.clock.advance(UNGRANTED_ALARM_MS);
    expect(await run(ctx)).toMatchObject({ granted: 0, overdue: 1 });
    ctx.credits.down = false;
    expect(await run(ctx)).toMatchObject({ granted: 1, overdue: 0 });
  });

  it('stops reading a plan 35 days after it ended at PayPal, and one never approved after 35 days', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    ctx.subscriptionPaypal.cancelAtPaypal(id);
    await run(ctx);
    expect((await ctx.subscriptions.get(BUYER.sub))!.status).toBe('cancelled');
    ctx.clock.advance(34 * DAY);
    expect(await run(ctx)).toMatchObject({ plans: 1, stopped: 0 });
    ctx.clock.advance(2 * DAY);
    expect(await run(ctx)).toMatchObject({ plans: 1, stopped: 1 });
    expect(await run(ctx)).toMatchObject({ plans: 0 });

    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id });
    expect(await run(ctx)).toMatchObject({ plans: 1, stopped: 0 });
    ctx.clock.advance(36 * DAY);
    expect(await run(ctx)).toMatchObject({ plans: 1, stopped: 1 });
  });

  it('reads each plan once per run, least recently read first, and stops at its deadline', async () => {
    const ctx = subscriptionsSetup();
    await subscribed(ctx, STARTER.id);
    const calls = () => ctx.subscriptionPaypal.calls.filter((c) => c === 'listSales').length;
    const before = calls();
    expect(await reconcileSubscriptions({ ...ctx.deps, deadline: () => 0 })).toMatchObject({ plans: 0 });
    expect(calls()).toBe(before);
    expect(await run(ctx)).toMatchObject({ plans: 1 });
    expect(calls()).toBe(before + 1);
  });
});
