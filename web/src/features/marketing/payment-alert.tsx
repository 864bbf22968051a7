import { useEffect, useState } from 'react';
import { Alert } from '../../components/alert';
import { useNavigation } from '../../lib/navigation';
import { hasPaymentQuery, landingPaymentNotice, readPaymentReturn, withoutPaymentQuery, type PaymentNotice } from '../payments/payment-messages';

const noticeFrom = (search: string) => {
  const params = readPaymentReturn(search);
  return params && landingPaymentNotice(params);
};

/**
 * The landing page's payment message ('Payment successful! {credits} credits added to user {userId}.', 'Payment was
 * canceled.', and the pending and error outcomes), shown once; the query string is then cleared so a reload or a
 * shared link does not repeat it. Nothing here touches credits: the server added them before redirecting.
 */
export function PaymentAlert() {
  const { pathname, search, hash, navigate } = useNavigation();
  const [notice, setNotice] = useState<PaymentNotice | undefined>(() => noticeFrom(search));

  useEffect(() => {
    if (!hasPaymentQuery(search)) return;
    const fresh = noticeFrom(search);
    if (fresh) setNotice(fresh);
    navigate(`${pathname}${withoutPaymentQuery(search)}${hash}`, { replace: true });
  }, [search, pathname, hash, navigate]);

  if (!notice) return null;
  return (
    <div className="mx-auto max-w-3xl px-4 pt-6 sm:px-6">
      <Alert variant={notice.variant} onDismiss={() => setNotice(undefined)}>
        {notice.text}
      </Alert>
    </div>
  );
}
