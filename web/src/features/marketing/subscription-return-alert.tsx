import { lazy, Suspense, useEffect, useState } from 'react';
import { SUBSCRIPTION_RETURN_PARAM, SUBSCRIPTION_RETURNED } from '../../../../contract/payment-return-paths';
import { useNavigation } from '../../lib/navigation';

// The plan's status (the API client, the query, the signed-in session) is only downloaded by a return from PayPal.
const SubscriptionReturnNotice = lazy(() => import('../subscriptions').then((m) => ({ default: m.SubscriptionReturnNotice })));

/**
 * Where a public page shows the buyer's plan after PayPal's subscription page (`?subscription=returned`): the marker
 * says nothing, so the notice asks GET /api/subscription with the buyer's session. Mounted after hydration, as
 * PaymentReturnAlert, since a prerendered page's HTML has no query string.
 */
export function SubscriptionReturnAlert() {
  const { search } = useNavigation();
  const [returning, setReturning] = useState(false);
  useEffect(() => {
    if (new URLSearchParams(search).get(SUBSCRIPTION_RETURN_PARAM) === SUBSCRIPTION_RETURNED) setReturning(true);
  }, [search]);
  if (!returning) return null;
  return (
    <Suspense fallback={null}>
      <div className="mx-auto max-w-3xl px-4 pt-6 sm:px-6">
        <SubscriptionReturnNotice />
      </div>
    </Suspense>
  );
}
