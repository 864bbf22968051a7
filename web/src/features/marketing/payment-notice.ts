/**
 * The message the landing page shows when PayPal sends the buyer back (`/?payment=success&userId=..&credits=..`
 * or `/?payment=cancel`). The server has already captured the order and added the credits before it
 * redirects; this only tells the buyer. The query is not trusted for anything else.
 */
export type PaymentNotice = { kind: 'success' | 'cancel'; message: string };

const USER_ID = /^[\w-]{1,128}$/;
const CREDITS = /^[1-9]\d{0,6}$/;

export function paymentNoticeFrom(search: string): PaymentNotice | undefined {
  const params = new URLSearchParams(search);
  const payment = params.get('payment');
  if (payment === 'cancel') return { kind: 'cancel', message: 'Payment was canceled.' };
  if (payment !== 'success') return undefined;
  const userId = params.get('userId') ?? '';
  const credits = params.get('credits') ?? '';
  if (!USER_ID.test(userId) || !CREDITS.test(credits)) return undefined;
  return { kind: 'success', message: `Payment successful! ${credits} credits added to user ${userId}.` };
}

/** The query parameters of the payment return, removed from the address bar once read. */
export const PAYMENT_PARAMS = ['payment', 'userId', 'credits'] as const;

/** The search string without the payment parameters ('' when nothing else is left). */
export function withoutPaymentParams(search: string): string {
  const params = new URLSearchParams(search);
  for (const p of PAYMENT_PARAMS) params.delete(p);
  const rest = params.toString();
  return rest ? `?${rest}` : '';
}
