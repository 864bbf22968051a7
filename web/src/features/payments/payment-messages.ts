/**
 * What the app says after PayPal sends the buyer back with `?payment=...&order=<orderId>`. The query string only names the order: the page asks the server about it
 * (GET /api/payment-outcome) and words only the server's answer, so numbers in a URL show nothing. Pure functions
 * with no React, session or API import, so the landing page can use them without pulling the signed-in app into
 * its first load.
 *
 * The query is read by hand rather than with the contract's zod schema (PaymentReturnParams): zod would be the
 * landing page's heaviest import. A test keeps the two in agreement.
 */
import { Messages } from '../../../../contract/errors';
import { maskEmail } from '../../../../contract/mask-email';
import type { PaymentOutcome, PaymentOutcomeResponse, PaymentReturnParams } from '../../../../contract/payments';
import type { AlertVariant } from '../../components/alert';

export interface PaymentNotice {
  variant: AlertVariant;
  text: string;
}

/**
 * The query keys of a payment return; the app removes exactly these once it has read them (userId and credits
 * are what older links carried: they are cleared and never shown).
 */
export const PAYMENT_QUERY_KEYS = ['payment', 'order', 'userId', 'credits'] as const;

const OUTCOMES: readonly string[] = ['success', 'pending', 'cancel', 'error'] satisfies readonly PaymentOutcome[];
const ORDER_ID = /^[A-Z0-9]{5,36}$/;

/**
 * The payment return in a query string, or undefined when there is none or it is not one we send (an unknown
 * outcome, or an order id that is not PayPal's shape).
 */
export function readPaymentReturn(search: string | URLSearchParams): PaymentReturnParams | undefined {
  const query = typeof search === 'string' ? new URLSearchParams(search) : search;
  const payment = query.get('payment');
  if (payment === null || !OUTCOMES.includes(payment)) return undefined;
  const result: PaymentReturnParams = { payment: payment as PaymentOutcome };
  const order = query.get('order');
  if (order) {
    if (!ORDER_ID.test(order)) return undefined;
    result.order = order;
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
 * The generators' and My Account's message, from the server's answer about the order.
 * `currentEmail` is the signed-in user's: a success whose buyer is someone else is the mismatch message.
 */
export function paymentNotice(answer: PaymentOutcomeResponse, currentEmail: string | undefined): PaymentNotice {
  switch (answer.outcome) {
    case 'success':
      if (answer.credits === undefined) return { variant: 'error', text: Messages.paymentFailed };
      if (!answer.buyer || !currentEmail || answer.buyer !== maskEmail(currentEmail)) return { variant: 'error', text: Messages.paymentUserMismatch };
      return { variant: 'success', text: Messages.paymentAdded(answer.credits) };
    case 'cancel':
      return { variant: 'info', text: Messages.paymentCanceled };
    case 'pending':
      return { variant: 'info', text: Messages.paymentPending };
    case 'error':
      return { variant: 'error', text: Messages.paymentFailed };
  }
}

/**
 * The landing page's message (route /): 'Payment successful! {credits} credits added to user
 * {user}.' with the server's credits and the buyer's masked email (never an internal id), or 'Payment was
 * canceled.', plus the pending and error outcomes. Undefined when the server's success names no buyer.
 */
export function landingPaymentNotice(answer: PaymentOutcomeResponse): PaymentNotice | undefined {
  switch (answer.outcome) {
    case 'success':
      if (!answer.buyer || answer.credits === undefined) return undefined;
      return { variant: 'success', text: Messages.paymentAddedToUser(answer.credits, answer.buyer) };
    case 'cancel':
      return { variant: 'info', text: Messages.paymentWasCanceled };
    case 'pending':
      return { variant: 'info', text: Messages.paymentPending };
    case 'error':
      return { variant: 'error', text: Messages.paymentFailed };
  }
}

/** The /buy page's words (buy-page.tsx). */
export const BuyMessages = {
  redirecting: 'Taking you to PayPal...',
  continueToPaypal: 'Continue to PayPal',
  unknownPack: 'That credit pack does not exist. Please choose one of the packs.',
} as const;
