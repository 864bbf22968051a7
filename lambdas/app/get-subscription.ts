import { Messages } from '../../contract/errors';
import type { SubscriptionView } from '../../contract/subscriptions';
import type { SubscriptionStore } from '../ports/subscriptions';

export interface GetSubscriptionDeps {
  subscriptions: SubscriptionStore;
}

/** The caller's plan as stored (webhooks and the return keep it as PayPal says), with both kinds of credits. */
export async function getSubscription(deps: GetSubscriptionDeps, owner: string): Promise<SubscriptionView> {
  const [s, b] = await Promise.all([deps.subscriptions.get(owner), deps.subscriptions.balances(owner)]);
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
