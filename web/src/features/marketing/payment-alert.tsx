import { useCallback, useState } from 'react';
import type { PaymentReturnParams } from '../../../../contract/payments';
import { Alert } from '../../components/alert';
import { useNavigation } from '../../lib/navigation';
import { landingPaymentNotice, readPaymentReturn, type PaymentNotice } from '../payments/payment-messages';
import { usePaymentReturn } from '../payments/use-payment-return';

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
  const { search } = useNavigation();
  // Read on the first render too, so the message is there with the page rather than a frame later.
  const [notice, setNotice] = useState<PaymentNotice | undefined>(() => noticeFrom(search));

  const show = useCallback((params: PaymentReturnParams) => {
    const fresh = landingPaymentNotice(params);
    if (fresh) setNotice(fresh);
  }, []);
  usePaymentReturn(show);

  if (!notice) return null;
  return (
    <div className="mx-auto max-w-3xl px-4 pt-6 sm:px-6">
      <Alert variant={notice.variant} onDismiss={() => setNotice(undefined)}>
        {notice.text}
      </Alert>
    </div>
  );
}
