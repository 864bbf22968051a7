/**
 * Subscribing: our plan made at PayPal on first use, a subscription tied to the buyer, recorded pending before the buyer
 * sees PayPal's page; nothing granted until PayPal is paid; one plan at a time.
 * In-memory ports (test/support/fakes/subscriptions.ts).
 */
import { Messages } from '../../contract/errors';
import { PLANS } from '../../contract/plans';
import { subscribe } from '../../lambdas/app/subscribe';
import { Conflict, InvalidInput, ProviderError } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { expectBooksBalanced } from '../support/fakes/credits';
import { BUYER } from '../support/fakes/payments';
import { subscribed, subscriptionsSetup } from '../support/fakes/subscriptions';

const STARTER = PLANS[0]!;
const CREATOR = PLANS[1]!;

describe('subscribe', () => {
  it('answers PayPal approval page and records the plan pending, granting nothing yet', async () => {
    const ctx = subscriptionsSetup();
    const answer = await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id, returnPath: '/pricing' });
    const [id, atPaypal] = [...ctx.subscriptionPaypal.subscriptions][0]!;
    expect(answer).toEqual({ approvalUrl: atPaypal.approvalUrl });
    expect(atPaypal).toMatchObject({ status: 'APPROVAL_PENDING', customId: BUYER.sub });
    expect(ctx.subscriptionPaypal.plans.get(atPaypal.paypalPlanId)!.plan).toEqual(STARTER);
    expect(await ctx.subscriptions.get(BUYER.sub)).toMatchObject({ id, planId: STARTER.id, status: 'pending', returnPath: '/pricing' });
    expect(await ctx.subscriptions.ownerOf(id)).toBe(BUYER.sub);
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10, planCredits: 0 });
    expect(ctx.credits.rowsOf(BUYER.sub).map((l) => l.reason)).toEqual(['welcome']);
  });

  it('comes back to the page the buyer came from, or / when it named none', async () => {
    const ctx = subscriptionsSetup();
    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id });
    expect((await ctx.subscriptions.get(BUYER.sub))!.returnPath).toBe('/');
  });

  it('makes our product and each plan at PayPal once, reused by later subscribers', async () => {
    const ctx = subscriptionsSetup();
    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id });
    const other = { ...BUYER, sub: 'user-0002', email: 'other@example.com' };
    await subscribe(ctx.deps, other, { withdrawalConsent: true, planId: STARTER.id });
    await subscribe(ctx.deps, { ...BUYER, sub: 'user-0003', email: 'third@example.com' }, { withdrawalConsent: true, planId: CREATOR.id });
    expect(ctx.subscriptionPaypal.calls.filter((c) => c === 'createProduct')).toHaveLength(1);
    expect([...ctx.subscriptionPaypal.plans.values()].map((p) => p.plan.id)).toEqual([STARTER.id, CREATOR.id]);
    const [a, b] = [...ctx.subscriptionPaypal.subscriptions.values()];
    expect(a!.paypalPlanId).toBe(b!.paypalPlanId);
    // A first-time caller gets an account (with the welcome credits) on the way.
    expect(await ctx.credits.get(other.sub)).toMatchObject({ email: other.email });
  });

  it('refuses a plan that is not ours before anything reaches PayPal', async () => {
    const ctx = subscriptionsSetup();
    const err = await caught(subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: 'plan-free' }));
    expect(err).toBeInstanceOf(InvalidInput);
    expect(err.message).toBe(Messages.invalidPlan);
    expect(ctx.subscriptionPaypal.calls).toEqual([]);
    expect(await ctx.subscriptions.get(BUYER.sub)).toBeUndefined();
  });

  it('refuses a second plan while one is active or suspended (409), and allows a new one once it is cancelled', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    const err = await caught(subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: CREATOR.id }));
    expect(err).toBeInstanceOf(Conflict);
    expect(err.message).toBe(Messages.alreadySubscribed);

    for (let i = 0; i < ctx.subscriptionPaypal.failureThreshold; i++) ctx.subscriptionPaypal.bill(id, 'failed');
    await ctx.subscriptions.update(BUYER.sub, id, { status: 'suspended' });
    expect((await caught(subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: CREATOR.id }))).message).toBe(Messages.alreadySubscribed);
    expect(ctx.subscriptionPaypal.subscriptions.size).toBe(1);

    ctx.subscriptionPaypal.cancelAtPaypal(id);
    await ctx.subscriptions.update(BUYER.sub, id, { status: 'cancelled' });
    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: CREATOR.id });
    expect(await ctx.subscriptions.get(BUYER.sub)).toMatchObject({ planId: CREATOR.id, status: 'pending' });
    // What the first plan granted stays.
    expect(ctx.credits.balances(BUYER.sub)).toEqual({ credits: 10 + STARTER.credits, planCredits: STARTER.credits });
  });

  it('replaces a subscription the buyer never approved', async () => {
    const ctx = subscriptionsSetup();
    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id });
    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: CREATOR.id });
    const second = [...ctx.subscriptionPaypal.subscriptions.keys()][1];
    expect(await ctx.subscriptions.get(BUYER.sub)).toMatchObject({ id: second, planId: CREATOR.id, status: 'pending' });
  });

  it('refuses the loser of two tabs subscribing at once when the other became active meanwhile', async () => {
    const ctx = subscriptionsSetup();
    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id });
    const first = (await ctx.subscriptions.get(BUYER.sub))!.id;
    const paypal = ctx.subscriptionPaypal;
    // While the second tab waits for PayPal, the first tab's buyer approves and comes back.
    ctx.deps.subscriptionProvider = async () =>
      Object.assign(Object.create(paypal) as typeof paypal, {
        createSubscription: async (n: Parameters<typeof paypal.createSubscription>[0]) => {
          const made = await paypal.createSubscription(n);
          paypal.approve(first);
          await ctx.subscriptions.update(BUYER.sub, first, { status: 'active' });
          return made;
        },
      });
    const err = await caught(subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: CREATOR.id }));
    expect(err).toBeInstanceOf(Conflict);
    expect(err.message).toBe(Messages.alreadySubscribed);
    expect(await ctx.subscriptions.get(BUYER.sub)).toMatchObject({ id: first, planId: STARTER.id, status: 'active' });
  });

  it('answers that PayPal is unavailable while it cannot be reached, and records nothing', async () => {
    const ctx = subscriptionsSetup();
    ctx.subscriptionPaypal.down = true;
    const err = await caught(subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id }));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe(Messages.paymentUnavailable);
    expect(await ctx.subscriptions.get(BUYER.sub)).toBeUndefined();
    expect(ctx.logs.map((l) => l.message)).toEqual(['PayPal subscription creation failed']);
    // Back up: the plan is made then, and the buyer gets the page.
    ctx.subscriptionPaypal.down = false;
    expect((await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id })).approvalUrl).toMatch(/^https:\/\/paypal\.test\//);
    expectBooksBalanced(ctx.credits);
  });
});
