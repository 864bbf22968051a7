import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Alert } from '../../components/alert';
import { hasPaymentQuery, landingPaymentNotice, readPaymentReturn, withoutPaymentQuery, type PaymentNotice } from './payment-messages';

export interface LandingPaymentNoticeProps {
  className?: string;
}

/**
 * The landing page's payment alert (spec section 2, route /): 'Payment successful! {credits} credits added to user
 * {userId}.' or 'Payment was canceled.' (and the pending and error outcomes), then the payment keys leave the query
 * string. It needs no session and no API call, so the landing page stays light: import it from this file, not from
 * the feature's index (which also brings the signed-in parts).
 */
export function LandingPaymentNotice({ className }: LandingPaymentNoticeProps = {}) {
  const location = useLocation();
  const navigate = useNavigate();
  const [notice, setNotice] = useState<PaymentNotice | undefined>();

  useEffect(() => {
    if (!hasPaymentQuery(location.search)) return;
    const params = readPaymentReturn(location.search);
    const next = params && landingPaymentNotice(params);
    if (next) setNotice(next);
    navigate({ pathname: location.pathname, search: withoutPaymentQuery(location.search), hash: location.hash }, { replace: true, state: location.state });
  }, [location, navigate]);

  if (!notice) return null;
  return (
    <Alert variant={notice.variant} onDismiss={() => setNotice(undefined)} className={className}>
      {notice.text}
    </Alert>
  );
}
