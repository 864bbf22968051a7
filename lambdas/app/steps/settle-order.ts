/**
 * The step both payment triggers share. Settling an order: capture it at PayPal (or read it), check that what PayPal captured is exactly what we sold
 * to whom we sold it, and credit the pack once. Both triggers, the buyer's return and PayPal's webhooks, run the
 * same steps in any order and any number of times: the order's transition to captured is made in the same
 * transaction as the credits, so whichever comes first credits and the others change nothing. PayPal's answer
 * also moves an order to pending (capture held) or failed (capture declined or denied); only the winner of the
 * crediting transaction sends the receipt.
 */
import { toCents } from '../../../contract/packs';
import type { AccountStore } from '../../ports/accounts';
import type { Mailer } from '../../ports/mailer';
import {
  FundingDeclined,
  OrderNotApproved,
  PaymentRefused,
  type Order,
  type OrderStore,
  type PaymentProvider,
  type ProviderOrder,
  type StoredOrderStatus,
} from '../../ports/payments';
import { sendReceipt } from './payment-receipt';

export interface SettleDeps {
  orders: OrderStore;
  provider: () => Promise<PaymentProvider>;
  /** The receipt goes to the owner's email. */
  accounts: Pick<AccountStore, 'get'>;
  mailer: Mailer;
  now: () => Date;
  log: (message: string, details: Record<string, unknown>) => void;
}

export type Settlement =
  | { result: 'credited'; order: Order; balance: number }
  | { result: 'already-credited'; order: Order }
  /** PayPal holds the capture (e.g. PENDING review): PAYMENT.CAPTURE.COMPLETED will settle it later. */
  | { result: 'pending'; order: Order }
  | { result: 'not-approved'; order: Order }
  /** The buyer's funding source was declined at capture: send the buyer back to PayPal to choose another. */
  | { result: 'retry-approval'; order: Order; approvalUrl: string }
  /** PayPal refused the capture, or captured something other than what we sold: never credited. */
  | { result: 'refused'; order: Order; reason: string }
  | { result: 'unknown-order' };

/** Statuses of an order whose credits were given (some may have been taken back since). */
export const PAID: readonly StoredOrderStatus[] = ['captured', 'partially_refunded', 'refunded', 'reversed'];
/** Statuses from which PayPal's word can still move an order (to captured, pending or failed). */
const OPEN: StoredOrderStatus[] = ['created', 'pending', 'canceled'];
/** Capture statuses of money PayPal took: a refund since then does not undo the purchase (its own event takes back). */
const CAPTURED = new Set(['COMPLETED', 'PARTIALLY_REFUNDED', 'REFUNDED']);

/** Every capture of an order uses the same PayPal-Request-Id, so concurrent and retried captures are one capture. */
const captureRequestId = (orderId: string) => `capture-${orderId}`;

/**
 * Settles one of our orders. `capture` asks PayPal to capture it (the buyer approved it); `check` only reads it
 * (PayPal says it captured it). Throws PaymentProviderUnavailable when PayPal cannot be reached: try again later.
 */
export async function settleOrder(deps: SettleDeps, orderId: string, mode: 'capture' | 'check'): Promise<Settlement> {
  const order = await deps.orders.get(orderId);
  if (!order) return { result: 'unknown-order' };
  return settleStoredOrder(deps, order, mode);
}

/** settleOrder for an order just read from our table. */
export async function settleStoredOrder(deps: SettleDeps, order: Order, mode: 'capture' | 'check'): Promise<Settlement> {
  if (PAID.includes(order.status)) return { result: 'already-credited', order };
  if (order.status === 'failed') return { result: 'refused', order, reason: order.failReason ?? 'failed before' };

  const provider = await deps.provider();
  let remote: ProviderOrder;
  if (mode === 'capture') {
    try {
      remote = await provider.captureOrder(order.id, captureRequestId(order.id));
    } catch (err) {
      if (err instanceof OrderNotApproved) return { result: 'not-approved', order };
      if (err instanceof FundingDeclined) {
        // PayPal: "redirect the payer to select another funding source". The order stays open.
        const approvalUrl = err.redirectUrl ?? order.approvalUrl;
        if (approvalUrl) return { result: 'retry-approval', order, approvalUrl };
        return refused(deps, order, err.message);
      }
      if (!(err instanceof PaymentRefused)) throw err;
      // ORDER_ALREADY_CAPTURED, or another capture of the same order was under way: PayPal's order says what
      // happened. Anything but a completed order is not paid.
      remote = await provider.getOrder(order.id);
      if (remote.status !== 'COMPLETED') return refused(deps, order, err.message);
    }
  } else {
    try {
      remote = await provider.getOrder(order.id);
    } catch (err) {
      if (err instanceof PaymentRefused) return refused(deps, order, err.message);
      throw err;
    }
  }

  if (remote.status === 'APPROVED' || remote.status === 'CREATED' || remote.status === 'PAYER_ACTION_REQUIRED') {
    return mode === 'capture' ? { result: 'not-approved', order } : { result: 'pending', order };
  }
  const capture = remote.captures[0];
  if (remote.status !== 'COMPLETED' || !capture) return fail(deps, order, `order status ${remote.status}`);
  if (capture.status === 'PENDING') {
    await deps.orders.transition(order, ['created', 'canceled'], 'pending', deps.now().toISOString());
    return { result: 'pending', order: { ...order, status: 'pending' } };
  }
  if (!CAPTURED.has(capture.status)) return fail(deps, order, `capture ${capture.id} status ${capture.status}`);

  const mismatch = mismatchOf(order, remote);
  if (mismatch) return fail(deps, order, mismatch);

  const capturedAt = deps.now().toISOString();
  const r = await deps.orders.captureAndCredit(order, { captureId: capture.id, capturedAt });
  if (!r.credited) return { result: 'already-credited', order };
  const credited: Order = { ...order, status: 'captured', captureId: capture.id, capturedAt, statusAt: capturedAt };
  await sendReceipt(deps, credited);
  return { result: 'credited', order: credited, balance: r.balance };
}

/** Why PayPal's order is not the one we sold (a different amount, currency or buyer), or undefined. */
function mismatchOf(order: Order, remote: ProviderOrder): string | undefined {
  const capture = remote.captures[0]!;
  if (remote.id !== order.id) return `PayPal returned order ${remote.id}`;
  const paid = capture.amount ?? remote.amount;
  if (!paid || paid.currency !== order.currency) return `currency ${paid?.currency} instead of ${order.currency}`;
  if (toCents(paid.value) === undefined || toCents(paid.value) !== toCents(order.amount)) return `amount ${paid.value} instead of ${order.amount}`;
  const customId = capture.customId ?? remote.customId;
  if (customId !== order.owner) return `custom_id ${customId} instead of the order's owner`;
  return undefined;
}

function refused(deps: SettleDeps, order: Order, reason: string): Settlement {
  deps.log('PayPal order not credited', { orderId: order.id, owner: order.owner, reason });
  return { result: 'refused', order, reason };
}

/** PayPal's answer is final (declined, denied, voided, or not what we sold): the order is failed, never credited. */
async function fail(deps: SettleDeps, order: Order, reason: string): Promise<Settlement> {
  await deps.orders.transition(order, OPEN, 'failed', deps.now().toISOString(), { failReason: reason });
  return refused(deps, { ...order, status: 'failed', failReason: reason }, reason);
}
