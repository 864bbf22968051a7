import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Alert } from '../../components/alert';
import { paymentNoticeFrom, withoutPaymentParams, type PaymentNotice } from './payment-notice';

/**
 * Shows the payment return's message once and clears the query string, so a reload or a shared link does
 * not repeat it. Nothing here touches credits: the server added them before redirecting.
 */
export function PaymentAlert() {
  const location = useLocation();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<PaymentNotice | undefined>(() => paymentNoticeFrom(location.search));

  useEffect(() => {
    const params = new URLSearchParams(location.search);
    if (!params.has('payment') && !params.has('userId') && !params.has('credits')) return;
    const fresh = paymentNoticeFrom(location.search);
    if (fresh) setNotice(fresh);
    void navigate({ pathname: location.pathname, search: withoutPaymentParams(location.search), hash: location.hash }, { replace: true });
  }, [location.search, location.pathname, location.hash, navigate]);

  if (!notice) return null;
  return (
    <div className="mx-auto max-w-3xl px-4 pt-6 sm:px-6">
      <Alert variant={notice.kind === 'success' ? 'success' : 'info'} onDismiss={() => setNotice(undefined)}>
        {notice.message}
      </Alert>
    </div>
  );
}
