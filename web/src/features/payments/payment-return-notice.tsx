import { useCallback, useState } from 'react';
import type { PaymentOutcomeResponse, PaymentReturnParams } from '../../../../contract/payments';
import { Alert } from '../../components/alert';
import { useSession } from '../auth';
import { refreshCredits } from '../credits';
import { paymentNotice, type PaymentNotice } from './payment-messages';
import { fetchPaymentOutcome } from './payment-outcome-api';
import { usePaymentReturn } from './use-payment-return';
import { usePendingOutcome } from './use-pending-outcome';

export { PENDING_RECHECKS, PENDING_RECHECK_MS } from './use-pending-outcome';

export interface PaymentReturnNoticeProps {
  className?: string;
}

/**
 * On the generators and My Account: after a PayPal return (`?payment=...&order=...`), asks the server about that
 * order and shows what it says, re-reads the balance (the server credited the order before
 * redirecting here; the client never adds credits itself), and removes the payment keys from the query string.
 * While a payment is pending, the server is asked again every few seconds, so the message and the balance change
 * when the capture lands (a return that could not reach PayPal is captured by the order reconciler).
 */
export function PaymentReturnNotice({ className }: PaymentReturnNoticeProps = {}) {
  const { user } = useSession();
  const [notice, setNotice] = useState<PaymentNotice | undefined>();
  const [pending, setPending] = useState<PaymentReturnParams | undefined>();

  const answered = useCallback(
    (params: PaymentReturnParams, answer: PaymentOutcomeResponse) => {
      setNotice(paymentNotice(answer, user?.email));
      setPending(answer.outcome === 'pending' ? params : undefined);
      void refreshCredits();
    },
    [user],
  );
  const show = useCallback(
    (params: PaymentReturnParams) => {
      void fetchPaymentOutcome(params).then((answer) => answer && answered(params, answer));
    },
    [answered],
  );
  // Once the session is known: the message depends on who is signed in.
  usePaymentReturn(show, Boolean(user));
  const settled = useCallback((answer: PaymentOutcomeResponse) => pending && answered(pending, answer), [pending, answered]);
  usePendingOutcome(pending, settled);

  if (!notice) return null;
  return (
    <Alert
      variant={notice.variant}
      onDismiss={() => {
        setNotice(undefined);
        setPending(undefined);
      }}
      className={className}
    >
      {notice.text}
    </Alert>
  );
}
