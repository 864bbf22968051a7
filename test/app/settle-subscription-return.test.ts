/**
 * The buyer back from PayPal's approval page: the subscription read at PayPal and recorded, what PayPal already took
 * granted (once, with its receipt), and the page the buyer came from told the outcome.
 * In-memory ports (test/support/fakes/subscriptions.ts).
 */
import { PLANS } from '../../contract/plans';
import { settleSubscriptionReturn } from '../../lambdas/app/settle-subscription-return';
import { subscribe } from '../../lambdas/app/subscribe';
import { expectBooksBalanced } from '../support/fakes/credits';
import { BUYER } from '../support/fakes/payments';
import { subscriptionsSetup, type SubscriptionsContext } from '../support/fakes/subscriptions';

const STARTER = PLANS[0]!;

async function pending(ctx: SubscriptionsContext, returnPath: '/pricing' | '/admin' = '/pricing') {
  await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id, returnPath });
  return (await ctx.subscriptions.get(BUYER.sub))!.id;
}

describe('settleSubscriptionReturn', () => {
  it('approved: success on the page the buyer came from, the plan active and its first payment granted with a receipt', async () => {
    const ctx = subscriptionsSetup();
    const id = await pending(ctx, '/admin');
    const sale = ctx.subscriptionPaypal.approve(id);
    expect(await settleSubscriptionReturn(ctx.deps, id)).toEqual({ outcome: 'success', returnPath: '/admin' });
    const s = await ctx.subscriptions.get(BUYER.sub);
    expect(s).toMatchObject({ status: 'active', planId: STARTER.id, nextBillingAt: ctx.subscriptionPaypal.subscriptions.get(id)!.nextBillingAt });
    expect(ctx.credits.rowsOf(BUYER.sub).map((l) => [l.reason, l.delta, l.plan ?? 0, l.ref])).toEqual([
      ['welcome', 10, 0, BUYER.sub],
      ['plan', STARTER.credits, STARTER.credits, sale.id],
    ]);
    expect(ctx.mails).toHaveLength(1);
    expect(ctx.mails[0]).toMatchObject({ to: [BUYER.email], subject: `Your Framewright receipt: Starter plan, ${STARTER.credits} credits` });
    expect(ctx.mails[0]!.text).toContain(`PayPal transaction id: ${sale.id}`);
    // The sale is the buyer's payment, listed like a pack's.
    expect((await ctx.orders.list(BUYER.sub)).items).toEqual([expect.objectContaining({ id: sale.id, packId: STARTER.id, credits: STARTER.credits, amount: STARTER.price, status: 'captured', subscriptionId: id })]);
  });

  it('the same return twice (a reload) grants once and mails once', async () => {
    const ctx = subscriptionsSetup();
    const id = await pending(ctx);
    ctx.subscriptionPaypal.approve(id);
    await settleSubscriptionReturn(ctx.deps, id);
    expect(await settleSubscriptionReturn(ctx.deps, id)).toEqual({ outcome: 'success', returnPath: '/pricing' });
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10 + STARTER.credits, planCredits: STARTER.credits });
    expect(ctx.mails).toHaveLength(1);
    expectBooksBalanced(ctx.credits);
  });

  it('cancelled on PayPal page: cancel, the plan still pending, nothing granted', async () => {
    const ctx = subscriptionsSetup();
    const id = await pending(ctx);
    expect(await settleSubscriptionReturn(ctx.deps, id)).toEqual({ outcome: 'cancel', returnPath: '/pricing' });
    expect(await ctx.subscriptions.get(BUYER.sub)).toMatchObject({ status: 'pending' });
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10, planCredits: 0 });
    expect(ctx.subscriptionPaypal.calls).not.toContain('listSales');
  });

  it('says pending while PayPal cannot be reached; the next look settles it', async () => {
    const ctx = subscriptionsSetup();
    const id = await pending(ctx);
    ctx.subscriptionPaypal.approve(id);
    ctx.subscriptionPaypal.down = true;
    expect(await settleSubscriptionReturn(ctx.deps, id)).toEqual({ outcome: 'pending', returnPath: '/pricing' });
    expect(ctx.credits.balances(BUYER.sub).credits).toBe(10);
    ctx.subscriptionPaypal.down = false;
    expect((await settleSubscriptionReturn(ctx.deps, id)).outcome).toBe('success');
    expect(ctx.credits.balances(BUYER.sub).credits).toBe(10 + STARTER.credits);
  });

  it('a subscription that is not ours: error on the home page, nothing asked of PayPal', async () => {
    const ctx = subscriptionsSetup();
    expect(await settleSubscriptionReturn(ctx.deps, 'I-NOTOURS00001')).toEqual({ outcome: 'error', returnPath: '/' });
    expect(ctx.subscriptionPaypal.calls).toEqual([]);
  });

  it('an older subscription the buyer replaced but approved: the first PayPal activates is the plan (one still pending is not)', async () => {
    const ctx = subscriptionsSetup();
    const old = await pending(ctx, '/admin');
    await pending(ctx);
    ctx.subscriptionPaypal.approve(old);
    expect((await settleSubscriptionReturn(ctx.deps, old)).outcome).toBe('success');
    expect(await ctx.subscriptions.get(BUYER.sub)).toMatchObject({ id: old, status: 'active' });
  });

  it('PayPal naming another buyer in custom_id: error, nothing recorded or granted', async () => {
    const ctx = subscriptionsSetup();
    const id = await pending(ctx);
    ctx.subscriptionPaypal.approve(id);
    ctx.subscriptionPaypal.subscriptions.get(id)!.customId = 'someone-else';
    expect((await settleSubscriptionReturn(ctx.deps, id)).outcome).toBe('error');
    expect(await ctx.subscriptions.get(BUYER.sub)).toMatchObject({ status: 'pending' });
    expect(ctx.credits.balances(BUYER.sub).credits).toBe(10);
    expect(ctx.logs.map((l) => l.message)).toContain('A subscription whose custom_id is not its owner');
  });
});
