import { useEffect, useState } from 'react';
import { Alert } from '../../components/alert';
import { useNavigation } from '../../lib/navigation';
import { paymentNoticeFrom, withoutPaymentParams, type PaymentNotice } from './payment-notice';

/**
 * Shows the payment return's message once and clears the query string, so a reload or a shared link does
 * not repeat it. Nothing here touches credits: the server added them before redirecting.
 */
export function PaymentAlert() {
  const { pathname, search, hash, navigate } = useNavigation();
  const [notice, setNotice] = useState<PaymentNotice | undefined>(() => paymentNoticeFrom(search));

  useEffect(() => {
    const params = new URLSearchParams(search);
    if (!params.has('payment') && !params.has('userId') && !params.has('credits')) return;
    const fresh = paymentNoticeFrom(search);
    if (fresh) setNotice(fresh);
    navigate(`${pathname}${withoutPaymentParams(search)}${hash}`, { replace: true });
  }, [search, pathname, hash, navigate]);

  if (!notice) return null;
  return (
    <div className="mx-auto max-w-3xl px-4 pt-6 sm:px-6">
      <Alert variant={notice.kind === 'success' ? 'success' : 'info'} onDismiss={() => setNotice(undefined)}>
        {notice.message}
      </Alert>
    </div>
  );
}
