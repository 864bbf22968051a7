/**
 * My Account's plan: the plan, its status and next billing date, plan credits and pack credits; Subscribe (a plan of
 * the contract, once the buyer ticked the withdrawal consent), Change plan or Cancel. Back from PayPal
 * (`?subscription=returned`, which says nothing itself) it reads the plan again and says whether it is active or still
 * waiting for PayPal (SubscriptionReturnNotice).
 */
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Messages } from '../../../../contract/errors';
import { PLANS, findPlan } from '../../../../contract/plans';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { cx } from '../../lib/cx';
import { formatDateTime } from '../../lib/format-date-time';
import { refreshCredits } from '../credits';
import { WithdrawalConsent } from '../payments';
import { queryClient } from '../../lib/query-client';
import { SUBSCRIPTION_RETURN_PARAM, SUBSCRIPTION_RETURNED } from '../../../../contract/payment-return-paths';
import { cancelPlan, changePlan, startSubscription, subscriptionQuery, useSubscription } from './subscription-api';
import { SubscriptionReturnNotice } from './subscription-return-notice';

const STATUS_LABELS = { none: 'No plan', pending: 'Waiting for PayPal', active: 'Active', suspended: 'Paused: payment failed', cancelled: 'Cancelled' } as const;

export function SubscriptionPanel({ className }: { className?: string }) {
  const { data, error } = useSubscription();
  const [params] = useSearchParams();
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  const [consent, setConsent] = useState(false);
  const [needsConsent, setNeedsConsent] = useState(false);
  const returned = params.get(SUBSCRIPTION_RETURN_PARAM) === SUBSCRIPTION_RETURNED;

  useEffect(() => {
    if (!returned) return;
    void queryClient.invalidateQueries({ queryKey: subscriptionQuery.queryKey });
    void refreshCredits();
  }, [returned]);

  const run = (action: () => Promise<void>) => {
    setBusy(true);
    setFailure(undefined);
    action().catch((err: unknown) => {
      setFailure(err instanceof Error ? err.message : String(err));
      setBusy(false);
    });
  };

  if (error) return <Alert variant="error" className={className}>Failed to load your plan.</Alert>;
  if (!data) return null;
  const plan = data.planId ? findPlan(data.planId) : undefined;
  const live = data.status === 'active' || data.status === 'suspended';
  return (
    <section aria-labelledby="plan-heading" data-testid="subscription-panel" className={cx('rounded-card border border-line bg-surface p-5', className)}>
      <h2 id="plan-heading" className="text-lg font-semibold text-ink">
        Your plan: {live && plan ? plan.name : STATUS_LABELS[data.status]}
      </h2>
      <dl className="mt-3 grid gap-x-6 gap-y-1 text-sm sm:grid-cols-2">
        {live && (
          <div>
            <dt className="inline text-ink-muted">Status: </dt>
            <dd className="inline font-medium text-ink" data-testid="plan-status">{STATUS_LABELS[data.status]}</dd>
          </div>
        )}
        {data.nextBillingAt && (
          <div>
            <dt className="inline text-ink-muted">Next billing and plan credits: </dt>
            <dd className="inline font-medium text-ink" data-testid="plan-next-billing">{formatDateTime(data.nextBillingAt)}</dd>
          </div>
        )}
        {data.nextPlanId && findPlan(data.nextPlanId) && (
          <div>
            <dt className="inline text-ink-muted">From the next billing: </dt>
            <dd className="inline font-medium text-ink" data-testid="plan-next">{findPlan(data.nextPlanId)!.name}</dd>
          </div>
        )}
        <div>
          <dt className="inline text-ink-muted">Plan credits (spent first, roll over one month): </dt>
          <dd className="inline font-medium text-ink" data-testid="plan-credits">{data.planCredits}</dd>
        </div>
        <div>
          <dt className="inline text-ink-muted">Pack credits (never expire): </dt>
          <dd className="inline font-medium text-ink" data-testid="pack-credits">{data.packCredits}</dd>
        </div>
      </dl>
      {returned && !data.problem && <SubscriptionReturnNotice className="mt-3" />}
      {data.problem && <Alert variant="error" className="mt-3">{data.problem}</Alert>}
      {failure && <Alert variant="error" className="mt-3">{failure}</Alert>}
      {!live && (
        <WithdrawalConsent
          className="mt-4"
          checked={consent}
          onChange={(checked) => {
            setConsent(checked);
            if (checked) setNeedsConsent(false);
          }}
          error={needsConsent ? Messages.withdrawalConsentRequired : undefined}
        />
      )}
      <div className="mt-4 flex flex-wrap gap-2">
        {live
          ? PLANS.filter((p) => p.id !== data.planId && data.status === 'active').map((p) => (
              <Button key={p.id} variant="secondary" disabled={busy} className={WRAPS} onClick={() => run(() => changePlan(p.id))}>
                Change to {p.name} (${p.price}/month, {p.credits} credits)
              </Button>
            ))
          : PLANS.map((p) => (
              <Button key={p.id} disabled={busy} className={WRAPS} onClick={() => (consent ? run(() => startSubscription(p.id, '/admin')) : setNeedsConsent(true))}>
                Subscribe: {p.name}, ${p.price}/month, {p.credits} credits
              </Button>
            ))}
        {live && (
          <Button variant="secondary" disabled={busy} onClick={() => run(() => cancelPlan().then(() => setBusy(false)))}>
            Cancel plan
          </Button>
        )}
      </div>
    </section>
  );
}

/** A plan's button names its price and credits: on a phone it wraps inside the card instead of widening the page. */
const WRAPS = 'h-auto! min-h-10 max-w-full whitespace-normal! py-2 text-left';
