import { Messages } from '../../contract/errors';
import type { SubscriptionView } from '../../contract/subscriptions';
import { PaymentProviderUnavailable, PaymentRefused } from '../ports/payments';
import { syncSubscription, type SubscriptionDeps } from './steps/subscription-payments';

export type GetSubscriptionDeps = SubscriptionDeps;

/**
 * The caller's plan (webhooks keep it as PayPal says), with both kinds of credits. A plan still pending is read at
 * PayPal first: the buyer may just have approved it and be back on the page (the public return tells nothing and does
 * nothing), so the page shows it active, with its first month granted, without waiting for PayPal's webhook. Only the
 * caller's own plan is read; while PayPal cannot be reached the stored plan is shown and the webhooks settle it.
 */
export async function getSubscription(deps: GetSubscriptionDeps, owner: string): Promise<SubscriptionView> {
  const stored = await deps.subscriptions.get(owner);
  if (stored?.status === 'pending') {
    try {
      await syncSubscription(deps, stored.id);
    } catch (err) {
      if (!(err instanceof PaymentProviderUnavailable || err instanceof PaymentRefused)) throw err;
      deps.log('A pending plan could not be read at PayPal', { owner, id: stored.id, error: err.message });
    }
  }
  const [s, b] = await Promise.all([stored?.status === 'pending' ? deps.subscriptions.get(owner) : stored, deps.subscriptions.balances(owner)]);
  const planCredits = Math.max(0, Math.min(b.planCredits, b.credits));
  const balances = { planCredits, packCredits: b.credits - planCredits };
  if (!s) return { status: 'none', ...balances };
  const problem =
    s.status === 'suspended'
      ? Messages.subscriptionSuspended
      : s.status === 'active' && s.nextRetryAt && (s.failedPayments ?? 0) > 0
        ? Messages.subscriptionPaymentFailed(s.nextRetryAt.slice(0, 10))
        : undefined;
  return {
    id: s.id,
    planId: s.planId,
    status: s.status,
    ...(s.status === 'active' && s.nextBillingAt ? { nextBillingAt: s.nextBillingAt } : {}),
    ...((s.status === 'active' || s.status === 'suspended') && s.nextPlanId ? { nextPlanId: s.nextPlanId } : {}),
    ...balances,
    ...(problem ? { problem } : {}),
  };
}
