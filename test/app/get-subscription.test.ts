/**
 * The caller's plan as My Account shows it: status, next billing date while active, plan and pack credits, and what
 * to do when PayPal could not take a payment. Back from PayPal's page (the public return tells and does nothing), the
 * buyer's own pending plan is read at PayPal: approved, it shows active with its first month granted once.
 * In-memory ports (test/support/fakes/subscriptions.ts).
 */
import { Messages } from '../../contract/errors';
import { PLANS } from '../../contract/plans';
import { getSubscription } from '../../lambdas/app/get-subscription';
import { syncSubscription } from '../../lambdas/app/steps/subscription-payments';
import { subscribe } from '../../lambdas/app/subscribe';
import { expectBooksBalanced } from '../support/fakes/credits';
import { BUYER } from '../support/fakes/payments';
import { subscribed, subscriptionsSetup, type SubscriptionsContext } from '../support/fakes/subscriptions';

const STARTER = PLANS[0]!;

async function pending(ctx: SubscriptionsContext) {
  await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id, returnPath: '/pricing' });
  return (await ctx.subscriptions.get(BUYER.sub))!.id;
}

describe('getSubscription', () => {
  it('none: only the pack and welcome credits', async () => {
    const ctx = subscriptionsSetup();
    expect(await getSubscription(ctx.deps, BUYER.sub)).toEqual({ status: 'none', planCredits: 0, packCredits: 10 });
    expect(await getSubscription(ctx.deps, 'never-signed-in')).toEqual({ status: 'none', planCredits: 0, packCredits: 0 });
  });

  it('active: PayPal id, plan, next billing date, and both kinds of credits', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    expect(await getSubscription(ctx.deps, BUYER.sub)).toEqual({
      id,
      planId: STARTER.id,
      status: 'active',
      nextBillingAt: '2026-02-02T03:04:05.000Z',
      planCredits: STARTER.credits,
      packCredits: 10,
    });
  });

  it('a failed payment PayPal will retry: still active, with the retry date and what to check', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    ctx.subscriptionPaypal.bill(id, 'failed');
    await syncSubscription(ctx.deps, id);
    const view = await getSubscription(ctx.deps, BUYER.sub);
    expect(view).toMatchObject({ status: 'active', problem: Messages.subscriptionPaymentFailed('2026-01-07') });
    // Paid at the retry: the problem is gone.
    ctx.subscriptionPaypal.bill(id, 'completed');
    await syncSubscription(ctx.deps, id);
    expect((await getSubscription(ctx.deps, BUYER.sub)).problem).toBeUndefined();
  });

  it('suspended: no next billing date, and how to fix the funding', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    for (let i = 0; i < ctx.subscriptionPaypal.failureThreshold; i++) ctx.subscriptionPaypal.bill(id, 'failed');
    await syncSubscription(ctx.deps, id);
    const view = await getSubscription(ctx.deps, BUYER.sub);
    expect(view).toEqual({ id, planId: STARTER.id, status: 'suspended', planCredits: STARTER.credits, packCredits: 10, problem: Messages.subscriptionSuspended });
  });

  it('never shows more plan credits than the balance (a pack refund took the balance below them)', async () => {
    const ctx = subscriptionsSetup();
    await subscribed(ctx, STARTER.id);
    ctx.credits.change({ sub: BUYER.sub, delta: -(STARTER.credits + 5), reason: 'purchase-refund', ref: 'ORDER-PACK', at: ctx.clock.now().toISOString(), allowNegative: true });
    expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ planCredits: 5, packCredits: 0 });
  });

  describe('a pending plan is read at PayPal first', () => {
    it('approved: active, its first payment granted with a receipt; asked again (a reload), granted and mailed once', async () => {
      const ctx = subscriptionsSetup();
      const id = await pending(ctx);
      const sale = ctx.subscriptionPaypal.approve(id);
      expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ id, status: 'active', planCredits: STARTER.credits, packCredits: 10 });
      expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ id, status: 'active', planCredits: STARTER.credits, packCredits: 10 });
      expect(ctx.credits.rowsOf(BUYER.sub).map((l) => [l.reason, l.delta, l.plan ?? 0, l.ref])).toEqual([
        ['welcome', 10, 0, BUYER.sub],
        ['plan', STARTER.credits, STARTER.credits, sale.id],
      ]);
      expect(ctx.mails).toHaveLength(1);
      expect(ctx.mails[0]!.text).toContain(`PayPal transaction id: ${sale.id}`);
      expectBooksBalanced(ctx.credits);
    });

    it('not approved (cancelled on PayPal page): still pending, nothing granted, no sales asked for', async () => {
      const ctx = subscriptionsSetup();
      const id = await pending(ctx);
      expect(await getSubscription(ctx.deps, BUYER.sub)).toEqual({ id, planId: STARTER.id, status: 'pending', planCredits: 0, packCredits: 10 });
      expect(ctx.subscriptionPaypal.calls).toContain('getSubscription');
      expect(ctx.subscriptionPaypal.calls).not.toContain('listSales');
    });

    it('PayPal unreachable: the stored plan (pending), no error; the next look shows it active', async () => {
      const ctx = subscriptionsSetup();
      const id = await pending(ctx);
      ctx.subscriptionPaypal.approve(id);
      ctx.subscriptionPaypal.down = true;
      expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ id, status: 'pending', planCredits: 0, packCredits: 10 });
      expect(ctx.logs.map((l) => l.message)).toContain('A pending plan could not be read at PayPal');
      ctx.subscriptionPaypal.down = false;
      expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ id, status: 'active', planCredits: STARTER.credits });
    });

    it('an active plan is shown as stored, without asking PayPal', async () => {
      const ctx = subscriptionsSetup();
      await subscribed(ctx, STARTER.id);
      const before = ctx.subscriptionPaypal.calls.length;
      await getSubscription(ctx.deps, BUYER.sub);
      expect(ctx.subscriptionPaypal.calls.length).toBe(before);
    });
  });
});
