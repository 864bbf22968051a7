/**
 * Changing plan: PayPal's revise (the buyer approves the new price at PayPal); the cycle already paid keeps its credits,
 * and each payment from the next cycle on grants the credits of the plan whose price it paid; the buyer comes back to
 * the page the change was asked from.
 * In-memory ports (test/support/fakes/subscriptions.ts).
 */
import { Messages } from '../../contract/errors';
import { PLANS } from '../../contract/plans';
import { changeSubscription } from '../../lambdas/app/change-subscription';
import { getSubscription } from '../../lambdas/app/get-subscription';
import { subscribe } from '../../lambdas/app/subscribe';
import { grantSale, syncSubscription } from '../../lambdas/app/steps/subscription-payments';
import { Conflict, InvalidInput, ProviderError } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { expectBooksBalanced } from '../support/fakes/credits';
import { BUYER } from '../support/fakes/payments';
import { subscribed, subscriptionsSetup } from '../support/fakes/subscriptions';

const STARTER = PLANS[0]!;
const CREATOR = PLANS[1]!;
const MONTH = 31 * 24 * 3600 * 1000;

describe('changeSubscription', () => {
  it('answers PayPal page for the new plan; the plan changes only once the buyer approves', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    const answer = await changeSubscription(ctx.deps, BUYER.sub, { planId: CREATOR.id });
    expect(answer.approvalUrl).toMatch(/^https:\/\/paypal\.test\/.*ba_token=/);
    const revision = ctx.subscriptionPaypal.subscriptions.get(id)!.revision!;
    expect(ctx.subscriptionPaypal.plans.get(revision)!.plan).toEqual(CREATOR);
    await syncSubscription(ctx.deps, id);
    expect((await getSubscription(ctx.deps, BUYER.sub)).planId).toBe(STARTER.id);
  });

  it('PayPal brings the buyer back to the page the change was asked from, not the one they subscribed from (in the return URL)', async () => {
    const ctx = subscriptionsSetup();
    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id, returnPath: '/pricing' });
    const id = (await ctx.subscriptions.get(BUYER.sub))!.id;
    const atPaypal = () => ctx.subscriptionPaypal.subscriptions.get(id)!;
    expect([atPaypal().returnUrl, atPaypal().cancelUrl]).toEqual(Array(2).fill(`https://app.example.com/api/paypal/subscription-return?to=%2Fpricing`));
    ctx.subscriptionPaypal.approve(id);
    await getSubscription(ctx.deps, BUYER.sub);
    await changeSubscription(ctx.deps, BUYER.sub, { planId: CREATOR.id, returnPath: '/admin' });
    expect([atPaypal().returnUrl, atPaypal().cancelUrl]).toEqual(Array(2).fill(`https://app.example.com/api/paypal/subscription-return?to=%2Fadmin`));
    // Without one, the page the plan was bought on.
    ctx.subscriptionPaypal.approveRevision(id);
    await changeSubscription(ctx.deps, BUYER.sub, { planId: PLANS[2]!.id });
    expect(atPaypal().returnUrl).toBe(`https://app.example.com/api/paypal/subscription-return?to=%2Fpricing`);
  });

  it('from the next cycle: the month already paid keeps its credits, the next payment grants the new plan', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    await changeSubscription(ctx.deps, BUYER.sub, { planId: CREATOR.id });
    ctx.subscriptionPaypal.approveRevision(id);
    await syncSubscription(ctx.deps, id);
    // The month paid is Starter's; PayPal bills Creator from the next cycle.
    expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ planId: STARTER.id, nextPlanId: CREATOR.id, status: 'active', planCredits: STARTER.credits });
    ctx.clock.advance(MONTH);
    const next = ctx.subscriptionPaypal.bill(id, 'completed')!;
    expect(next.amount.value).toBe(CREATOR.price);
    expect(await grantSale(ctx.deps, id, next)).toBe('granted');
    // The Starter month left rolls over up to one Creator month, and the Creator grant is added.
    expect(await getSubscription(ctx.deps, BUYER.sub)).toMatchObject({ planCredits: STARTER.credits + CREATOR.credits, packCredits: 10 });
    expect(ctx.credits.rowsOf(BUYER.sub).map((l) => [l.reason, l.delta])).toEqual([
      ['welcome', 10],
      ['plan', STARTER.credits],
      ['plan', CREATOR.credits],
    ]);
    expect((await ctx.orders.get(next.id))!.packId).toBe(CREATOR.id);
    expectBooksBalanced(ctx.credits);
  });

  it('a late event about the old price grants the old plan credits', async () => {
    const ctx = subscriptionsSetup();
    const { id, firstSale } = await subscribed(ctx, STARTER.id);
    await changeSubscription(ctx.deps, BUYER.sub, { planId: CREATOR.id });
    ctx.subscriptionPaypal.approveRevision(id);
    ctx.clock.advance(MONTH);
    // Billed at the old price before the revision applied; its event arrives after.
    const late = { id: 'SALE-LATE-0001', amount: { currency: 'USD', value: STARTER.price }, time: ctx.clock.now().toISOString() };
    await syncSubscription(ctx.deps, id);
    expect(await grantSale(ctx.deps, id, late)).toBe('granted');
    expect((await ctx.orders.get(late.id))!).toMatchObject({ packId: STARTER.id, credits: STARTER.credits });
    expect(await grantSale(ctx.deps, id, firstSale)).toBe('already-granted');
  });

  it('refuses a plan that is not ours, and the plan one already has', async () => {
    const ctx = subscriptionsSetup();
    await subscribed(ctx, STARTER.id);
    const unknown = await caught(changeSubscription(ctx.deps, BUYER.sub, { planId: 'plan-free' }));
    expect(unknown).toBeInstanceOf(InvalidInput);
    expect(unknown.message).toBe(Messages.invalidPlan);
    const same = await caught(changeSubscription(ctx.deps, BUYER.sub, { planId: STARTER.id }));
    expect(same).toBeInstanceOf(Conflict);
    expect(same.message).toBe(Messages.samePlan);
    expect(ctx.subscriptionPaypal.calls).not.toContain('revise');
  });

  it('refuses without an active plan (none, pending, suspended or cancelled)', async () => {
    const ctx = subscriptionsSetup();
    const none = await caught(changeSubscription(ctx.deps, BUYER.sub, { planId: CREATOR.id }));
    expect(none).toBeInstanceOf(Conflict);
    expect(none.message).toBe(Messages.noSubscription);
    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id });
    expect((await caught(changeSubscription(ctx.deps, BUYER.sub, { planId: CREATOR.id }))).message).toBe(Messages.noSubscription);
    const id = (await ctx.subscriptions.get(BUYER.sub))!.id;
    ctx.subscriptionPaypal.approve(id);
    for (let i = 0; i < ctx.subscriptionPaypal.failureThreshold; i++) ctx.subscriptionPaypal.bill(id, 'failed');
    await syncSubscription(ctx.deps, id);
    expect((await caught(changeSubscription(ctx.deps, BUYER.sub, { planId: CREATOR.id }))).message).toBe(Messages.noSubscription);
    expect(ctx.subscriptionPaypal.calls).not.toContain('revise');
  });

  it('PayPal unreachable: the caller is told to try again, the plan unchanged', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    ctx.subscriptionPaypal.down = true;
    const err = await caught(changeSubscription(ctx.deps, BUYER.sub, { planId: CREATOR.id }));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe(Messages.paymentUnavailable);
    expect(ctx.subscriptionPaypal.subscriptions.get(id)!.revision).toBeUndefined();
  });
});
