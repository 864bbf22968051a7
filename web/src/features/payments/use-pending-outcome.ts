import { useEffect } from 'react';
import type { PaymentOutcomeResponse, PaymentReturnParams } from '../../../../contract/payments';
import { fetchPaymentOutcome } from './payment-outcome-api';

/**
 * While PayPal is still confirming, ask the server about the order again this often, this many times (three minutes:
 * the order reconciler runs every minute, so a return that could not reach PayPal is captured within that).
 */
export const PENDING_RECHECK_MS = 5_000;
export const PENDING_RECHECKS = 36;

/**
 * While `params` names an order the server called pending, asks about it again every few seconds and hands the first
 * other answer to `onSettled` (the capture landed, or PayPal refused it): the page's message follows the server's.
 */
export function usePendingOutcome(params: PaymentReturnParams | undefined, onSettled: (answer: PaymentOutcomeResponse) => void): void {
  useEffect(() => {
    if (!params) return;
    const ac = new AbortController();
    let left = PENDING_RECHECKS;
    const timer = setInterval(() => {
      if (left <= 0) return clearInterval(timer);
      left -= 1;
      void fetchPaymentOutcome(params, ac.signal).then((answer) => {
        if (!answer || answer.outcome === 'pending' || ac.signal.aborted) return;
        clearInterval(timer);
        onSettled(answer);
      });
    }, PENDING_RECHECK_MS);
    return () => {
      clearInterval(timer);
      ac.abort();
    };
  }, [params, onSettled]);
}
