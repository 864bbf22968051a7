/**
 * Buying credits with PayPal: request and response schemas, the query strings of the PayPal redirects, and
 * the query string the app gets back on `/` after a payment (DESIGN sections 4 and 5).
 *
 * The flow:
 * 1. POST /api/create-paypal-payment {amount, credits, returnPath?} (a pack of contract/packs, and the app page
 *    to come back to, one of PAYMENT_RETURN_PATHS, '/' by default) -> {paymentUrl, orderId}; the order keeps
 *    returnPath; the browser goes to paymentUrl (PayPal's approval page).
 * 2. PayPal sends the browser to GET /api/paypal/return?token=<orderId>&PayerID=... (or /api/paypal/cancel).
 *    The server captures the order and credits the order's owner exactly once, then redirects to the order's
 *    returnPath with the outcome, e.g. `/generator?payment=success&userId=<owner sub>&credits=<n>` (see
 *    PaymentReturnParams, paymentReturnPath). The query string only says what to show: the app re-reads the
 *    balance from GET /api/me and never adds credits itself.
 * 3. PayPal's webhooks (POST /api/webhooks/paypal) settle the same order if the browser never comes back.
 * 4. GET /api/payments lists the caller's orders and credit ledger.
 */
import * as z from 'zod';
import { Messages } from './errors';
import { DEFAULT_PAYMENT_RETURN_PATH, PAYMENT_RETURN_PATHS } from './payment-return-paths';

// ---- POST /api/create-paypal-payment -------------------------------------------------------------------------

export { DEFAULT_PAYMENT_RETURN_PATH, PAYMENT_RETURN_PATHS, isPaymentReturnPath } from './payment-return-paths';
export const PaymentReturnPath = z.enum(PAYMENT_RETURN_PATHS, { error: Messages.invalidReturnPath });
export type PaymentReturnPath = z.infer<typeof PaymentReturnPath>;

/** The pack to buy, named by its price and credits (spec section 7's payment payload). */
export const CreatePaymentRequest = z.object(
  {
    /** USD, as "6.99" or 6.99. */
    amount: z.union([z.string().max(32), z.number()], { error: Messages.invalidPack }),
    credits: z.number({ error: Messages.invalidPack }),
    /** The app page to come back to after PayPal; '/' when left out. */
    returnPath: PaymentReturnPath.optional(),
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
 * What the return tells the app on the order's return path:
 * - success: the order is paid and its credits are on the owner's account (userId, credits given);
 * - pending: PayPal has not completed the payment yet; a webhook will credit the account when it does;
 * - cancel:  the buyer cancelled on PayPal; nothing was charged or credited;
 * - error:   unknown, unapproved or refused order; nothing was credited.
 */
export const PaymentOutcome = z.enum(['success', 'pending', 'cancel', 'error']);
export type PaymentOutcome = z.infer<typeof PaymentOutcome>;

export const PaymentReturnParams = z.object({
  payment: PaymentOutcome,
  /** The order owner's sub (success only): the app compares it with the signed-in user. */
  userId: z.string().optional(),
  /** Credits added (success only). */
  credits: z.coerce.number().int().positive().optional(),
});
export type PaymentReturnParams = z.infer<typeof PaymentReturnParams>;

/**
 * The app URL the return and cancel routes redirect to: the page the buyer started on with the outcome, e.g.
 * `/?payment=success&userId=...&credits=72` or `/generator?payment=cancel`.
 */
export function paymentReturnPath(p: PaymentReturnParams, returnPath: PaymentReturnPath = DEFAULT_PAYMENT_RETURN_PATH): string {
  const q = new URLSearchParams({ payment: p.payment });
  if (p.userId !== undefined) q.set('userId', p.userId);
  if (p.credits !== undefined) q.set('credits', String(p.credits));
  return `${returnPath}?${q.toString()}`;
}

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

/** created: waiting for the buyer or PayPal; captured: paid and credited. */
export const OrderStatus = z.enum(['created', 'captured']);
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
  capturedAt: z.string().optional(),
});
export type PaymentOrderView = z.infer<typeof PaymentOrderView>;

export const LedgerReason = z.enum(['welcome', 'image', 'video', 'refund', 'purchase']);
export type LedgerReason = z.infer<typeof LedgerReason>;

export const LedgerEntryView = z.object({
  id: z.string(),
  createdAt: z.string(),
  reason: LedgerReason,
  /** Signed: +72 for a purchase, -1 for an image. */
  delta: z.number().int(),
  /** The balance right after this change. */
  balance: z.number().int(),
  /** What the change belongs to: the order id (purchase), the job id (image, video, refund), "signup" (welcome). */
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
