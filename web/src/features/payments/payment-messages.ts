/**
 * What the app says after PayPal sends the buyer back with `?payment=...&userId=...&credits=...` (spec section 4,
 * DESIGN section 4). Pure functions with no React, session or API import, so the landing page can use them
 * without pulling the signed-in app into its first load.
 *
 * The query string only says what to show: the server credited the order before redirecting, and the app
 * re-reads the balance from GET /api/me. Nothing here ever adds credits.
 *
 * The query is read by hand rather than with the contract's zod schema (PaymentReturnParams): zod would be the
 * landing page's heaviest import. A test keeps the two in agreement.
 */
import { Messages } from '../../../../contract/errors';
import type { PaymentOutcome, PaymentReturnParams } from '../../../../contract/payments';
import type { AlertVariant } from '../../components/alert';

export interface PaymentNotice {
  variant: AlertVariant;
  text: string;
}

/** The query keys of a payment return; the app removes exactly these once it has shown the message. */
export const PAYMENT_QUERY_KEYS = ['payment', 'userId', 'credits'] as const;

const OUTCOMES: readonly string[] = ['success', 'pending', 'cancel', 'error'] satisfies readonly PaymentOutcome[];

/**
 * The payment outcome in a query string, or undefined when there is none or it is not one we send (an unknown
 * outcome, or credits that are not a positive whole number). Empty values count as absent.
 */
export function readPaymentReturn(search: string | URLSearchParams): PaymentReturnParams | undefined {
  const query = typeof search === 'string' ? new URLSearchParams(search) : search;
  const payment = query.get('payment');
  if (payment === null || !OUTCOMES.includes(payment)) return undefined;
  const result: PaymentReturnParams = { payment: payment as PaymentOutcome };
  const userId = query.get('userId');
  if (userId) result.userId = userId;
  const credits = query.get('credits')?.trim();
  if (credits) {
    const n = Number(credits);
    if (!Number.isInteger(n) || n <= 0) return undefined;
    result.credits = n;
  }
  return result;
}

/** True when the query string carries any payment-return key (so it should be cleared, valid or not). */
export function hasPaymentQuery(search: string | URLSearchParams): boolean {
  const query = typeof search === 'string' ? new URLSearchParams(search) : search;
  return PAYMENT_QUERY_KEYS.some((key) => query.has(key));
}

/** The query string without the payment-return keys, other keys (e.g. My Account's `tab`) kept: '' or '?tab=...'. */
export function withoutPaymentQuery(search: string): string {
  const query = new URLSearchParams(search);
  for (const key of PAYMENT_QUERY_KEYS) query.delete(key);
  const rest = query.toString();
  return rest ? `?${rest}` : '';
}

/**
 * The generators' and My Account's message (spec section 4). `currentSub` is the signed-in user: a success for
 * anyone else (or for nobody named) is the mismatch message, and their credits are not shown as added here.
 */
export function paymentNotice(params: PaymentReturnParams, currentSub: string | undefined): PaymentNotice {
  switch (params.payment) {
    case 'success':
      if (!params.userId || !currentSub || params.userId !== currentSub) return { variant: 'error', text: Messages.paymentUserMismatch };
      // Our server always names the credits; a success without them confirms nothing.
      if (params.credits === undefined) return { variant: 'error', text: Messages.paymentFailed };
      return { variant: 'success', text: Messages.paymentAdded(params.credits) };
    case 'cancel':
      return { variant: 'info', text: Messages.paymentCanceled };
    case 'pending':
      return { variant: 'info', text: Messages.paymentPending };
    case 'error':
      return { variant: 'error', text: Messages.paymentFailed };
  }
}

/**
 * The landing page's message (spec section 2, route /): 'Payment successful! {credits} credits added to user
 * {userId}.' or 'Payment was canceled.', plus the pending and error outcomes. The landing page is public, so it
 * names the user from the query string instead of comparing it. Undefined when a success does not say who got
 * how many credits (nothing honest to show).
 */
export function landingPaymentNotice(params: PaymentReturnParams): PaymentNotice | undefined {
  switch (params.payment) {
    case 'success':
      // The page names the user from the query: only an id shaped like ours (a Cognito sub) is worth showing.
      if (!params.userId || !/^[\w-]{1,128}$/.test(params.userId) || params.credits === undefined) return undefined;
      return { variant: 'success', text: Messages.paymentAddedToUser(params.credits, params.userId) };
    case 'cancel':
      return { variant: 'info', text: Messages.paymentWasCanceled };
    case 'pending':
      return { variant: 'info', text: Messages.paymentPending };
    case 'error':
      return { variant: 'error', text: Messages.paymentFailed };
  }
}
