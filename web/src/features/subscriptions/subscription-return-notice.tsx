/**
 * Back from PayPal's subscription page (`?subscription=returned`, the same for anyone: the public return tells nothing),
 * the plan's real status from GET /api/subscription with the buyer's session, which reads a pending plan at PayPal
 * first. Pending, it is asked again for a while (PayPal's webhook may still be on its way).
 */
import { useQuery } from '@tanstack/react-query';
import { findPlan } from '../../../../contract/plans';
import { Alert } from '../../components/alert';
import { ensureConfig } from '../../lib/config-state';
import { useSession } from '../auth';
import { queryClient } from '../../lib/query-client';
import { subscriptionQuery } from './subscription-api';

const POLL_MS = 3000;
const POLLS = 20;

export function SubscriptionReturnNotice({ className }: { className?: string }) {
  // On a public page the session starts here (Amplify loaded by this chunk): the plan is asked once it is signed in.
  const { status } = useSession();
  const { data } = useQuery(
    {
      ...subscriptionQuery,
      // A public page may render before /config.json is read: the API's base URL comes from it.
      queryFn: async (ctx) => {
        await ensureConfig();
        return subscriptionQuery.queryFn!(ctx);
      },
      refetchInterval: (q) => (q.state.data?.status === 'pending' && q.state.dataUpdateCount < POLLS ? POLL_MS : false),
      retry: false,
      enabled: status === 'signedIn',
    },
    queryClient,
  );
  if (!data) return null;
  const plan = data.planId ? findPlan(data.planId) : undefined;
  if (data.status === 'active')
    return (
      <Alert variant="success" className={className}>
        <span data-testid="subscription-return">Your plan is active{plan ? `: ${plan.name}, ${plan.credits} credits a month` : ''}.</span>
      </Alert>
    );
  if (data.status === 'pending')
    return (
      <Alert variant="info" className={className}>
        <span data-testid="subscription-return">Waiting for PayPal to confirm your plan. If you left PayPal without agreeing, nothing was charged.</span>
      </Alert>
    );
  if (data.status === 'suspended' && data.problem)
    return (
      <Alert variant="error" className={className}>
        <span data-testid="subscription-return">{data.problem}</span>
      </Alert>
    );
  return null;
}
