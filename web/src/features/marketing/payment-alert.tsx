import { useCallback, useState } from 'react';
import type { PaymentReturnParams } from '../../../../contract/payments';
import { Alert } from '../../components/alert';
import { landingPaymentNotice, type PaymentNotice } from '../payments/payment-messages';
import { fetchPaymentOutcome } from '../payments/payment-outcome-api';
import { usePaymentReturn } from '../payments/use-payment-return';

/**
 * The landing page's payment message ('Payment successful! {credits} credits added to user {masked email}.',
 * 'Payment was canceled.', and the pending and error outcomes), from the server's answer about the order the
 * return names: a URL's own numbers show nothing. Shown once; the query string is cleared so a reload or a
 * shared link does not repeat it. Nothing here touches credits: the server added them before redirecting.
 */
export function PaymentAlert() {
  const [notice, setNotice] = useState<PaymentNotice | undefined>();

  const show = useCallback((params: PaymentReturnParams) => {
    void fetchPaymentOutcome(params).then((answer) => {
      const fresh = answer && landingPaymentNotice(answer);
      if (fresh) setNotice(fresh);
    });
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
