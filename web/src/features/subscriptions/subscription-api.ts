/**
 * The caller's plan (GET /api/subscription) in the app's query client, and the calls that change it: subscribe
 * (POST /api/subscriptions, then PayPal's approval page), cancel and change plan. The server grants the credits.
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PaymentReturnPath } from '../../../../contract/payments';
import type { SubscriptionView } from '../../../../contract/subscriptions';
import { api } from '../../lib/api-client';
import { refreshCredits } from '../credits';
import { queryClient } from '../../lib/query-client';

export const subscriptionQuery = queryOptions({
  queryKey: ['account', 'subscription'] as const,
  queryFn: ({ signal }): Promise<SubscriptionView> => api.getSubscription({ signal }),
});

export function useSubscription() {
  return useQuery(subscriptionQuery, queryClient);
}

/**
 * Starts the plan at PayPal and sends the browser to its approval page; PayPal brings the buyer back to `returnPath`.
 * Called only once the buyer ticked checkout's withdrawal consent, which the plan carries.
 */
export async function startSubscription(planId: string, returnPath: PaymentReturnPath, go: (url: string) => void = (url) => window.location.assign(url)) {
  const { approvalUrl } = await api.createSubscription({ body: { withdrawalConsent: true, planId, returnPath } });
  go(approvalUrl);
}

/** Asks PayPal to move the plan; PayPal's page brings the buyer back to `returnPath` (My Account, where plans change). */
export async function changePlan(planId: string, returnPath: PaymentReturnPath = '/admin', go: (url: string) => void = (url) => window.location.assign(url)) {
  const { approvalUrl } = await api.changeSubscription({ body: { planId, returnPath } });
  go(approvalUrl);
}

export async function cancelPlan(): Promise<void> {
  queryClient.setQueryData(subscriptionQuery.queryKey, await api.cancelSubscription());
  await refreshCredits();
}
