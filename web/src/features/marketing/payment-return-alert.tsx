import { lazy, Suspense, useEffect, useState } from 'react';
import { useNavigation } from '../../lib/navigation';

// The payment outcome's code (the API client, the messages, the alert) is only downloaded by a return from PayPal.
const PaymentAlert = lazy(() => import('./payment-alert').then((m) => ({ default: m.PaymentAlert })));

/**
 * Where a public page shows a payment's outcome (PaymentAlert). A return from PayPal carries a query string, which a
 * prerendered page's HTML never has: the alert is mounted after hydration (so the first render matches the HTML),
 * and stays mounted once the query is cleared.
 */
export function PaymentReturnAlert() {
  const { search } = useNavigation();
  const [returning, setReturning] = useState(false);
  useEffect(() => {
    if (search) setReturning(true);
  }, [search]);
  if (!returning) return null;
  return (
    <Suspense fallback={null}>
      <PaymentAlert />
    </Suspense>
  );
}
