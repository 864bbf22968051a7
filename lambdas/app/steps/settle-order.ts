/**
 * The step both payment triggers share. Settling an order: capture it at PayPal (or read it), check that what PayPal captured is exactly what we sold
 * to whom we sold it, and credit the pack once. Both triggers, the buyer's return and PayPal's webhooks, run the
 * same steps in any order and any number of times: the order's created -> captured transition is made in the
 * same transaction as the credits, so whichever comes first credits and the others change nothing.
 */
import { toCents } from '../../../contract/packs';
import {
  OrderNotApproved,
  PaymentRefused,
  type Order,
  type OrderStore,
  type PaymentProvider,
  type ProviderOrder,
} from '../../ports/payments';

export interface SettleDeps {
  orders: OrderStore;
  provider: () => Promise<PaymentProvider>;
  now: () => Date;
  log: (message: string, details: Record<string, unknown>) => void;
}

export type Settlement =
  | { result: 'credited'; order: Order; balance: number }
  | { result: 'already-credited'; order: Order }
  /** PayPal holds the capture (e.g. PENDING review): PAYMENT.CAPTURE.COMPLETED will settle it later. */
  | { result: 'pending'; order: Order }
  | { result: 'not-approved'; order: Order }
  /** PayPal refused the capture, or captured something other than what we sold: never credited. */
  | { result: 'refused'; order: Order; reason: string }
  | { result: 'unknown-order' };

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
  if (order.status === 'captured') return { result: 'already-credited', order };

  const provider = await deps.provider();
  let remote: ProviderOrder;
  if (mode === 'capture') {
    try {
      remote = await provider.captureOrder(order.id, captureRequestId(order.id));
    } catch (err) {
      if (err instanceof OrderNotApproved) return { result: 'not-approved', order };
      if (!(err instanceof PaymentRefused)) throw err;
      // ORDER_ALREADY_CAPTURED, or another capture of the same order was under way: PayPal's order says what
      // happened. Anything but a completed order (e.g. INSTRUMENT_DECLINED) is not paid.
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
  if (remote.status !== 'COMPLETED' || !capture) return refused(deps, order, `order status ${remote.status}`);
  if (capture.status === 'PENDING') return { result: 'pending', order };
  if (capture.status !== 'COMPLETED') return refused(deps, order, `capture ${capture.id} status ${capture.status}`);

  const mismatch = mismatchOf(order, remote);
  if (mismatch) return refused(deps, order, mismatch);

  const r = await deps.orders.captureAndCredit(order, { captureId: capture.id, capturedAt: deps.now().toISOString() });
  if (r.credited) return { result: 'credited', order: { ...order, status: 'captured', captureId: capture.id }, balance: r.balance };
  return { result: 'already-credited', order };
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

