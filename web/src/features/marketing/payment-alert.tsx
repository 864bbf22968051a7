import { useCallback, useState } from 'react';
import type { PaymentOutcomeResponse, PaymentReturnParams } from '../../../../contract/payments';
import { Alert } from '../../components/alert';
import { landingPaymentNotice, type PaymentNotice } from '../payments/payment-messages';
import { fetchPaymentOutcome } from '../payments/payment-outcome-api';
import { usePaymentReturn } from '../payments/use-payment-return';
import { usePendingOutcome } from '../payments/use-pending-outcome';

/**
 * The landing page's payment message ('Payment successful! {credits} credits added to user {masked email}.',
 * 'Payment was canceled.', and the pending and error outcomes), from the server's answer about the order the
 * return names: a URL's own numbers show nothing; a pending one is asked about again until it settles. Shown once; the query string is cleared so a reload or a
 * shared link does not repeat it. Nothing here touches credits: the server added them before redirecting.
 */
export function PaymentAlert() {
  const [notice, setNotice] = useState<PaymentNotice | undefined>();
  const [pending, setPending] = useState<PaymentReturnParams | undefined>();

  const answered = useCallback((params: PaymentReturnParams, answer: PaymentOutcomeResponse | undefined) => {
    const fresh = answer && landingPaymentNotice(answer);
    if (fresh) setNotice(fresh);
    // While pending, the server is asked again until the capture lands (or is refused).
    setPending(answer?.outcome === 'pending' ? params : undefined);
  }, []);
  const show = useCallback((params: PaymentReturnParams) => void fetchPaymentOutcome(params).then((answer) => answered(params, answer)), [answered]);
  usePaymentReturn(show);
  const settled = useCallback((answer: PaymentOutcomeResponse) => pending && answered(pending, answer), [pending, answered]);
  usePendingOutcome(pending, settled);

  if (!notice) return null;
  return (
    <div className="mx-auto max-w-3xl px-4 pt-6 sm:px-6">
      <Alert
        variant={notice.variant}
        onDismiss={() => {
          setNotice(undefined);
          setPending(undefined);
        }}
      >
        {notice.text}
      </Alert>
    </div>
  );
}
