import { useCallback, useEffect, useState } from 'react';
import type { PaymentReturnParams } from '../../../../contract/payments';
import { Alert } from '../../components/alert';
import { useSession } from '../auth';
import { readCredits, refreshCredits } from '../credits';
import { paymentNotice, type PaymentNotice } from './payment-messages';
import { fetchPaymentOutcome } from './payment-outcome-api';
import { usePaymentReturn } from './use-payment-return';

/** While PayPal is still confirming, look at the balance again this often, this many times (a minute in all). */
export const PENDING_RECHECK_MS = 5_000;
export const PENDING_RECHECKS = 12;

export interface PaymentReturnNoticeProps {
  className?: string;
}

/**
 * On the generators and My Account: after a PayPal return (`?payment=...&order=...`), asks the server about that
 * order and shows what it says, re-reads the balance (the server credited the order before
 * redirecting here; the client never adds credits itself), and removes the payment keys from the query string.
 * While a payment is pending, the balance is re-read every few seconds for a minute, so the webhook's credits show
 * up without a reload.
 */
export function PaymentReturnNotice({ className }: PaymentReturnNoticeProps = {}) {
  const { user } = useSession();
  const [notice, setNotice] = useState<(PaymentNotice & { pending: boolean }) | undefined>();

  const show = useCallback(
    (params: PaymentReturnParams) => {
      void fetchPaymentOutcome(params).then((answer) => {
        if (!answer) return;
        setNotice({ ...paymentNotice(answer, user?.email), pending: answer.outcome === 'pending' });
        void refreshCredits();
      });
    },
    [user],
  );
  // Once the session is known: the message depends on who is signed in.
  usePaymentReturn(show, Boolean(user));

  const pending = notice?.pending ?? false;
  useEffect(() => {
    if (!pending) return;
    let before = readCredits().credits;
    let left = PENDING_RECHECKS;
    const timer = setInterval(() => {
      const now = readCredits().credits;
      before ??= now;
      // Stop once the webhook has credited (the balance moved) or we have waited long enough.
      if (left <= 0 || (now !== undefined && now !== before)) return clearInterval(timer);
      left -= 1;
      void refreshCredits();
    }, PENDING_RECHECK_MS);
    return () => clearInterval(timer);
  }, [pending]);

  if (!notice) return null;
  return (
    <Alert variant={notice.variant} onDismiss={() => setNotice(undefined)} className={className}>
      {notice.text}
    </Alert>
  );
}
