/**
 * Buying credits with PayPal: request and response schemas, the query strings of the PayPal redirects, and
 * the query string the app gets back on `/` after a payment.
 *
 * The flow:
 * 1. POST /api/create-paypal-payment {amount, credits, returnPath?} (a pack of contract/packs, and the app page
 *    to come back to, one of PAYMENT_RETURN_PATHS, '/' by default) -> {paymentUrl, orderId}; the order keeps
 *    returnPath; the browser goes to paymentUrl (PayPal's approval page).
 * 2. PayPal sends the browser to GET /api/paypal/return?token=<orderId>&PayerID=... (or /api/paypal/cancel).
 *    The server captures the order and credits the order's owner exactly once, then redirects to the order's
 *    returnPath, e.g. `/generator?payment=success&order=<orderId>` (see PaymentReturnParams, paymentReturnPath).
 *    The page asks GET /api/payment-outcome?order=<orderId> what to show: numbers in a URL show nothing, and the
 *    app re-reads the balance from GET /api/me and never adds credits itself. A capture PayPal declines with
 *    INSTRUMENT_DECLINED or PAYER_ACTION_REQUIRED sends the buyer back to PayPal's approval page instead.
 * 3. PayPal's webhooks (POST /api/webhooks/paypal) settle the same order if the browser never comes back, and
 *    later take the credits back on a refund or reversal (PAYMENT.CAPTURE.REFUNDED / REVERSED).
 * 4. GET /api/payments lists the caller's orders and credit ledger.
 */
import * as z from 'zod';
import { Messages } from './errors';
import { DEFAULT_PAYMENT_RETURN_PATH, PAYMENT_RETURN_PATHS } from './payment-return-paths';

// ---- POST /api/create-paypal-payment -------------------------------------------------------------------------

/**
 * EU consumers may withdraw from a purchase of digital content within 14 days, unless before supply they expressly
 * ask for it at once and acknowledge losing that right (Directive 2011/83/EU, Art. 16(m)). Checkout asks both in one
 * unticked box (WITHDRAWAL_CONSENT_TEXT); the server refuses an order or a plan without it and records when it was
 * given, and the purchase mail repeats it (the durable medium).
 */
export const WithdrawalConsent = z.literal(true, { error: Messages.withdrawalConsentRequired });

/** The checkbox's words at checkout, repeated in the confirmation mail. */
export const WITHDRAWAL_CONSENT_TEXT =
  'I want my credits now. I understand that I lose my 14-day right of withdrawal once I use them.';

export { DEFAULT_PAYMENT_RETURN_PATH, PAYMENT_RETURN_PATHS, isPaymentReturnPath } from './payment-return-paths';
export const PaymentReturnPath = z.enum(PAYMENT_RETURN_PATHS, { error: Messages.invalidReturnPath });
export type PaymentReturnPath = z.infer<typeof PaymentReturnPath>;

/** The pack to buy, named by its price and credits (the spec's payment payload). */
export const CreatePaymentRequest = z.object(
  {
    /** USD, as "6.99" or 6.99. */
    amount: z.union([z.string().max(32), z.number()], { error: Messages.invalidPack }),
    credits: z.number({ error: Messages.invalidPack }),
    /** The app page to come back to after PayPal; '/' when left out. */
    returnPath: PaymentReturnPath.optional(),
    /** The buyer's express request for the credits now, acknowledging the lost right of withdrawal (WithdrawalConsent). */
    withdrawalConsent: WithdrawalConsent,
  },
  { error: Messages.invalidPack },
);
export type CreatePaymentRequest = z.infer<typeof CreatePaymentRequest>;

export const CreatePaymentResponse = z.object({
  /** PayPal's approval page (the order's payer-action link): send the browser there. */
  paymentUrl: z.string(),
  /** PayPal's order id; it comes back as `token` on the return and cancel URLs. */
  orderId: z.string(),
});
export type CreatePaymentResponse = z.infer<typeof CreatePaymentResponse>;

// ---- GET /api/paypal/return and /api/paypal/cancel (browser redirects from PayPal, no token) -------------------

/** PayPal order ids are upper-case letters and digits (17 today); anything else is not an order of ours. */
export const PaypalOrderId = z.string().regex(/^[A-Z0-9]{5,36}$/);

export const PaypalRedirectQuery = z.object({
  token: PaypalOrderId,
  PayerID: z.string().max(64).optional(),
});
export type PaypalRedirectQuery = z.infer<typeof PaypalRedirectQuery>;

/**
 * What the return tells the app on the order's return path. The query string only says that a payment came back and
 * which order; the page then asks GET /api/payment-outcome about that order, and shows only what the server says:
 * - success: the order is paid and its credits are on the owner's account;
 * - pending: PayPal has not completed the payment yet; a webhook will credit the account when it does;
 * - cancel:  the buyer cancelled on PayPal; nothing was charged or credited;
 * - error:   unknown, unapproved, declined, expired or refunded order; nothing (more) was credited.
 */
export const PaymentOutcome = z.enum(['success', 'pending', 'cancel', 'error']);
export type PaymentOutcome = z.infer<typeof PaymentOutcome>;

export const PaymentReturnParams = z.object({
  payment: PaymentOutcome,
  /** The order the buyer came back from (absent for an unknown or malformed token). Carries no user id. */
  order: PaypalOrderId.optional(),
});
export type PaymentReturnParams = z.infer<typeof PaymentReturnParams>;

/**
 * The app URL the return and cancel routes redirect to: the page the buyer started on, e.g.
 * `/?payment=success&order=5O190127TN364715T` or `/generator?payment=cancel&order=...`.
 */
export function paymentReturnPath(p: PaymentReturnParams, returnPath: PaymentReturnPath = DEFAULT_PAYMENT_RETURN_PATH): string {
  const q = new URLSearchParams({ payment: p.payment });
  if (p.order !== undefined) q.set('order', p.order);
  return `${returnPath}?${q.toString()}`;
}

// ---- GET /api/payment-outcome?order=<id> (public: whoever holds the order id, i.e. the buyer coming back) ------------

export const PaymentOutcomeQuery = z.object({ order: PaypalOrderId });
export type PaymentOutcomeQuery = z.infer<typeof PaymentOutcomeQuery>;

export const PaymentOutcomeResponse = z.object({
  outcome: PaymentOutcome,
  /** Credits the order put on the account (success only). */
  credits: z.number().int().positive().optional(),
  /** The buyer's email, masked (success only): the landing page names the user with it. */
  buyer: z.string().optional(),
});
export type PaymentOutcomeResponse = z.infer<typeof PaymentOutcomeResponse>;

/**
 * How long a buyer has to approve a PayPal order (PayPal's approval window, 3 hours): an order still unapproved
 * after it is shown as expired.
 */
export const ORDER_APPROVAL_WINDOW_MS = 3 * 60 * 60 * 1000;

// ---- GET /api/payments ---------------------------------------------------------------------------------------------

export const ListPaymentsQuery = z.object({
  limit: z.coerce
    .number({ error: Messages.invalidLimit })
    .int(Messages.invalidLimit)
    .min(1, Messages.invalidLimit)
    .max(100, Messages.invalidLimit)
    .default(20),
  /** nextCursor of the previous page. */
  cursor: z.string().max(2000).optional(),
});
export type ListPaymentsQuery = z.infer<typeof ListPaymentsQuery>;

/**
 * created: waiting for the buyer; pending: PayPal holds the capture (credited when it completes); captured: paid
 * and credited; failed: PayPal declined or denied the capture, nothing credited; canceled: the buyer cancelled on
 * PayPal; expired: never approved within PayPal's approval window (shown, not stored); partially_refunded,
 * refunded: money went back and the credits it bought were taken back; reversed: a chargeback took the payment back.
 */
export const OrderStatus = z.enum(['created', 'pending', 'captured', 'failed', 'canceled', 'expired', 'partially_refunded', 'refunded', 'reversed']);
export type OrderStatus = z.infer<typeof OrderStatus>;

export const PaymentOrderView = z.object({
  /** PayPal's order id. */
  id: z.string(),
  createdAt: z.string(),
  packId: z.string(),
  credits: z.number().int(),
  /** "6.99" */
  amount: z.string(),
  currency: z.string(),
  status: OrderStatus,
  /** When the order reached its status. */
  statusAt: z.string(),
  capturedAt: z.string().optional(),
  /** PayPal's capture id (the receipt's reference). */
  captureId: z.string().optional(),
  /** "3.50": what went back to the buyer by refunds and reversals. */
  refundedAmount: z.string().optional(),
  /** Credits taken back by refunds and reversals. */
  creditsTakenBack: z.number().int().optional(),
  /** A buyer's dispute: open until PayPal decides (its outcome arrives as a refund or reversal). */
  dispute: z.enum(['open', 'resolved']).optional(),
});
export type PaymentOrderView = z.infer<typeof PaymentOrderView>;

/**
 * refund: a job's credits given back; purchase-refund and chargeback: a purchase's (or a plan payment's) credits taken
 * back; plan: a plan's monthly grant (on its completed billing payment); plan-expiry: plan credits beyond the rollover cap.
 */
export const LedgerReason = z.enum(['welcome', 'image', 'video', 'refund', 'purchase', 'purchase-refund', 'chargeback', 'plan', 'plan-expiry']);
export type LedgerReason = z.infer<typeof LedgerReason>;

export const LedgerEntryView = z.object({
  id: z.string(),
  createdAt: z.string(),
  reason: LedgerReason,
  /** Signed: +72 for a purchase, -1 for an image. */
  delta: z.number().int(),
  /** The balance right after this change. */
  balance: z.number().int(),
  /** The part of delta that was plan credits (a charge spends them first); absent when none. */
  plan: z.number().int().optional(),
  /** What the change belongs to: the order id (purchase, purchase-refund, chargeback; a plan payment's sale id for plan), the job id (image, video, refund), "signup" (welcome). */
  ref: z.string(),
});
export type LedgerEntryView = z.infer<typeof LedgerEntryView>;

/**
 * The caller's orders and credit ledger, each newest first. One cursor pages through both lists at once: a page
 * holds up to `limit` of each, and a list that has ended comes back empty on later pages.
 */
export const ListPaymentsResponse = z.object({
  orders: z.array(PaymentOrderView),
  ledger: z.array(LedgerEntryView),
  nextCursor: z.string().optional(),
});
export type ListPaymentsResponse = z.infer<typeof ListPaymentsResponse>;
