/**
 * At most one plan bills per person (issue 36): a new subscription cancels an earlier pending one at PayPal (PayPal
 * refuses while it waits for approval), and when two approval pages are approved anyway the first PayPal activates is
 * the plan; the other is cancelled at PayPal at once and its payment refunded in full, never granted. GET and cancel act
 * on the plan that bills. nextBillingAt moves with each billed cycle; nextPlanId names an approved change until it bills.
 * In-memory ports (test/support/fakes/subscriptions.ts).
 */
import { PLANS } from '../../contract/plans';
import { applyPaymentWebhook } from '../../lambdas/app/apply-payment-webhook';
import { cancelSubscription } from '../../lambdas/app/cancel-subscription';
import { getSubscription } from '../../lambdas/app/get-subscription';
import { subscribe } from '../../lambdas/app/subscribe';
import { syncSubscription } from '../../lambdas/app/steps/subscription-payments';
import type { ProviderSale } from '../../lambdas/ports/subscriptions';
import { expectBooksBalanced } from '../support/fakes/credits';
import { BUYER, paypalDelivery } from '../support/fakes/payments';
import { subscribed, subscriptionsSetup, type SubscriptionsContext } from '../support/fakes/subscriptions';

const STARTER = PLANS[0]!;
const CREATOR = PLANS[1]!;

const saleCompleted = (id: string, subscriptionId: string, sale: Pick<ProviderSale, 'id' | 'amount' | 'time'>) =>
  paypalDelivery({
    id,
    event_type: 'PAYMENT.SALE.COMPLETED',
    resource: { id: sale.id, state: 'completed', amount: { total: sale.amount.value, currency: sale.amount.currency }, billing_agreement_id: subscriptionId, create_time: sale.time },
  });

/** Subscribes and answers the new PayPal subscription's id (the approval page the buyer keeps in a tab). */
async function tab(ctx: SubscriptionsContext, planId: string): Promise<string> {
  const { approvalUrl } = await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId });
  return [...ctx.subscriptionPaypal.subscriptions.values()].find((s) => s.approvalUrl === approvalUrl)!.id;
}

const statusAtPaypal = (ctx: SubscriptionsContext, id: string) => ctx.subscriptionPaypal.subscriptions.get(id)!.status;

describe('one plan per person', () => {
  it('a new subscription asks PayPal to cancel the earlier pending one (PayPal refuses one not approved yet: the new one still starts)', async () => {
    const ctx = subscriptionsSetup();
    const first = await tab(ctx, STARTER.id);
    const second = await tab(ctx, CREATOR.id);
    expect(ctx.subscriptionPaypal.calls.filter((c) => c === 'cancel')).toHaveLength(1);
    expect(statusAtPaypal(ctx, first)).toBe('APPROVAL_PENDING');
    expect(await ctx.subscriptions.get(BUYER.sub)).toMatchObject({ id: second, planId: CREATOR.id, status: 'pending' });
  });

  it('two tabs, both approved: the first activated is the plan; the second is cancelled at PayPal, refunded in full and never granted', async () => {
    const ctx = subscriptionsSetup();
    const a = await tab(ctx, STARTER.id);
    const b = await tab(ctx, CREATOR.id);
    // The buyer approves the older tab first, then the newer one; PayPal's sale events arrive.
    const saleA = ctx.subscriptionPaypal.approve(a);
    // Granted by the sync that makes it the plan (the sale event finds it granted).
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-A', a, saleA))).toMatchObject({ handled: 'already-granted' });
    const saleB = ctx.subscriptionPaypal.approve(b);
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-B', b, saleB))).toMatchObject({ handled: 'refunded' });

    expect(statusAtPaypal(ctx, a)).toBe('ACTIVE');
    expect(statusAtPaypal(ctx, b)).toBe('CANCELLED');
    expect(ctx.subscriptionPaypal.sales.find((s) => s.id === saleB.id)!.status).toBe('REFUNDED');
    expect([...ctx.subscriptionPaypal.refunds.values()].map((r) => [r.saleId, r.amount.value])).toEqual([[saleB.id, CREATOR.price]]);
    // Only the plan's month was granted; the refused one is kept for support, without the person.
    expect(ctx.credits.rowsOf(BUYER.sub).map((l) => [l.reason, l.delta])).toEqual([
      ['welcome', 10],
      ['plan', STARTER.credits],
    ]);
    const record = await ctx.subscriptions.refusedSale(saleB.id);
    expect(record).toMatchObject({ saleId: saleB.id, subscriptionId: b, amount: saleB.amount, reason: 'second-plan', outcome: 'refunded' });
    expect(JSON.stringify(record)).not.toContain(BUYER.sub);
    expectBooksBalanced(ctx.credits);

    // GET and cancel act on the plan that bills.
    expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ id: a, planId: STARTER.id, status: 'active' });
    // The second tab's BILLING.SUBSCRIPTION.* events (a read at PayPal) and its redelivered sale change nothing.
    await syncSubscription(ctx.deps, b);
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-B2', b, saleB))).toMatchObject({ handled: 'refunded' });
    expect(ctx.subscriptionPaypal.refunds.size).toBe(1);
    expect(await cancelSubscription(ctx.deps, BUYER.sub)).toMatchObject({ id: a, status: 'cancelled' });
    expect(statusAtPaypal(ctx, a)).toBe('CANCELLED');
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10 + STARTER.credits, planCredits: STARTER.credits });
  });

  it('the newer tab approved first is the plan, the older one approved after is refused, whichever trigger sees it (the page the buyer lands on, a read at PayPal)', async () => {
    const ctx = subscriptionsSetup();
    const a = await tab(ctx, STARTER.id);
    const b = await tab(ctx, CREATOR.id);
    ctx.subscriptionPaypal.approve(b);
    expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ id: b, status: 'active' });
    const saleA = ctx.subscriptionPaypal.approve(a);
    await syncSubscription(ctx.deps, a);
    expect(statusAtPaypal(ctx, b)).toBe('ACTIVE');
    expect(statusAtPaypal(ctx, a)).toBe('CANCELLED');
    expect(ctx.subscriptionPaypal.sales.find((s) => s.id === saleA.id)!.status).toBe('REFUNDED');
    expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ id: b, planId: CREATOR.id, status: 'active' });
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10 + CREATOR.credits, planCredits: CREATOR.credits });
  });

  it('20 subscribes at once, two of their pages approved and settled at once: exactly one bills, the other is refunded', async () => {
    const ctx = subscriptionsSetup();
    const answers = await Promise.allSettled(Array.from({ length: 20 }, () => subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id })));
    const urls = answers.flatMap((r) => (r.status === 'fulfilled' ? [r.value.approvalUrl] : []));
    const ids = urls.map((u) => [...ctx.subscriptionPaypal.subscriptions.values()].find((s) => s.approvalUrl === u)!.id);
    const [x, y] = [ids[2]!, ids[ids.length - 3]!];
    const sales = [ctx.subscriptionPaypal.approve(x), ctx.subscriptionPaypal.approve(y)];
    await Promise.all([
      applyPaymentWebhook(ctx.deps, saleCompleted('WH-X', x, sales[0]!)),
      applyPaymentWebhook(ctx.deps, saleCompleted('WH-Y', y, sales[1]!)),
      syncSubscription(ctx.deps, x),
      syncSubscription(ctx.deps, y),
    ]);
    const active = [...ctx.subscriptionPaypal.subscriptions.values()].filter((s) => s.status === 'ACTIVE').map((s) => s.id);
    expect(active).toHaveLength(1);
    const loser = active[0] === x ? y : x;
    expect(statusAtPaypal(ctx, loser)).toBe('CANCELLED');
    expect(ctx.subscriptionPaypal.sales.filter((s) => s.status === 'REFUNDED').map((s) => s.subscriptionId)).toEqual([loser]);
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10 + STARTER.credits, planCredits: STARTER.credits });
    expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ id: active[0], status: 'active' });
    expectBooksBalanced(ctx.credits);
  });

  it('nextBillingAt moves a month on when a cycle is billed (the sale event reads the plan again)', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    const first = (await getSubscription(ctx.deps, BUYER.sub)).nextBillingAt!;
    expect(first).toBe(ctx.subscriptionPaypal.subscriptions.get(id)!.nextBillingAt);
    const sale = ctx.subscriptionPaypal.bill(id, 'completed')!;
    await applyPaymentWebhook(ctx.deps, saleCompleted('WH-2', id, sale));
    const next = (await getSubscription(ctx.deps, BUYER.sub)).nextBillingAt!;
    expect(Date.parse(next)).toBeGreaterThan(Date.parse(first));
    expect(next).toBe(ctx.subscriptionPaypal.subscriptions.get(id)!.nextBillingAt);
  });

  it('nextPlanId names an approved change until its first payment, then the plan is the new one', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    const { changeSubscription } = await import('../../lambdas/app/change-subscription');
    await changeSubscription({ ...ctx.deps, appUrl: 'https://app.test' }, BUYER.sub, { planId: CREATOR.id });
    ctx.subscriptionPaypal.approveRevision(id);
    // PayPal's BILLING.SUBSCRIPTION.UPDATED reads the plan at PayPal.
    await syncSubscription(ctx.deps, id);
    expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ planId: STARTER.id, nextPlanId: CREATOR.id });
    const sale = ctx.subscriptionPaypal.bill(id, 'completed')!;
    expect(sale.amount.value).toBe(CREATOR.price);
    await applyPaymentWebhook(ctx.deps, saleCompleted('WH-C', id, sale));
    const after = await getSubscription(ctx.deps, BUYER.sub);
    expect(after).toMatchObject({ planId: CREATOR.id });
    expect(after.nextPlanId).toBeUndefined();
  });
});
