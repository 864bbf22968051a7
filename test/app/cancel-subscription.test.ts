/**
 * Cancelling from My Account: PayPal's cancel, then PayPal's state read back; no further payments, what was granted
 * stays. Only an active or suspended plan can be cancelled.
 * In-memory ports (test/support/fakes/subscriptions.ts).
 */
import { Messages } from '../../contract/errors';
import { PLANS } from '../../contract/plans';
import { cancelSubscription } from '../../lambdas/app/cancel-subscription';
import { subscribe } from '../../lambdas/app/subscribe';
import { syncSubscription } from '../../lambdas/app/steps/subscription-payments';
import { Conflict, ProviderError } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { expectBooksBalanced } from '../support/fakes/credits';
import { BUYER } from '../support/fakes/payments';
import { subscribed, subscriptionsSetup } from '../support/fakes/subscriptions';

const STARTER = PLANS[0]!;

describe('cancelSubscription', () => {
  it('cancels at PayPal and keeps what was granted; PayPal bills nothing more', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    const view = await cancelSubscription(ctx.deps, BUYER.sub);
    expect(view).toEqual({ id, planId: STARTER.id, status: 'cancelled', planCredits: STARTER.credits, packCredits: 10 });
    expect(ctx.subscriptionPaypal.cancelled).toEqual([{ id, reason: 'Cancelled by the subscriber in My Account' }]);
    expect(ctx.subscriptionPaypal.subscriptions.get(id)!.status).toBe('CANCELLED');
    expect(() => ctx.subscriptionPaypal.bill(id, 'completed')).toThrow(/only an active subscription is billed/);
    expect(ctx.credits.rowsOf(BUYER.sub).map((l) => l.reason)).toEqual(['welcome', 'plan']);
  });

  it('a suspended plan can be cancelled too', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    for (let i = 0; i < ctx.subscriptionPaypal.failureThreshold; i++) ctx.subscriptionPaypal.bill(id, 'failed');
    await syncSubscription(ctx.deps, id);
    expect((await cancelSubscription(ctx.deps, BUYER.sub)).status).toBe('cancelled');
  });

  it('grants a payment PayPal made that no webhook brought yet, with its receipt', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    ctx.clock.advance(31 * 24 * 3600 * 1000);
    const renewal = ctx.subscriptionPaypal.bill(id, 'completed')!;
    const view = await cancelSubscription(ctx.deps, BUYER.sub);
    expect(view).toMatchObject({ status: 'cancelled', planCredits: 2 * STARTER.credits });
    expect(ctx.mails.map((m) => m.text.includes(renewal.id))).toEqual([false, true]);
    expectBooksBalanced(ctx.credits);
  });

  it('cancelled at PayPal meanwhile: PayPal refuses, its state is the answer', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    ctx.subscriptionPaypal.cancelAtPaypal(id);
    expect((await cancelSubscription(ctx.deps, BUYER.sub)).status).toBe('cancelled');
    expect(ctx.subscriptionPaypal.cancelled).toEqual([]);
  });

  it('without an active or suspended plan: 409, nothing asked of PayPal', async () => {
    const ctx = subscriptionsSetup();
    const none = await caught(cancelSubscription(ctx.deps, BUYER.sub));
    expect(none).toBeInstanceOf(Conflict);
    expect(none.message).toBe(Messages.noSubscription);
    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id });
    expect((await caught(cancelSubscription(ctx.deps, BUYER.sub))).message).toBe(Messages.noSubscription);
    expect(ctx.subscriptionPaypal.calls).not.toContain('cancel');
  });

  it('already cancelled: 409', async () => {
    const ctx = subscriptionsSetup();
    await subscribed(ctx, STARTER.id);
    await cancelSubscription(ctx.deps, BUYER.sub);
    expect((await caught(cancelSubscription(ctx.deps, BUYER.sub))).message).toBe(Messages.noSubscription);
  });

  it('PayPal unreachable: the plan stays active and the caller is told to try again', async () => {
    const ctx = subscriptionsSetup();
    const { id } = await subscribed(ctx, STARTER.id);
    ctx.subscriptionPaypal.down = true;
    const err = await caught(cancelSubscription(ctx.deps, BUYER.sub));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe(Messages.paymentUnavailable);
    expect(await ctx.subscriptions.get(BUYER.sub)).toMatchObject({ id, status: 'active' });
    expect(ctx.subscriptionPaypal.subscriptions.get(id)!.status).toBe('ACTIVE');
  });
});
