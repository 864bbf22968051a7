/**
 * Refunds, reversals and disputes of a paid order. A refund or reversal takes back the credits the refunded part
 * bought, in proportion to the amount, once per PayPal refund id, in one transaction with its ledger row
 * (purchase-refund or chargeback); the balance may go below zero. Totals are cumulative, so partial refunds that
 * add up to the whole take back exactly the pack's credits. A dispute only marks the order: its outcome arrives as
 * a refund or reversal.
 */
import { toCents } from '../../../contract/packs';
import { creditsFor } from '../../domain/money-rules';
import { PaymentRefused, type Order, type PaymentEvent } from '../../ports/payments';
import { PAID, settleStoredOrder, type SettleDeps } from './settle-order';

export type TakeBackResult =
  | { result: 'taken-back'; order: Order; balance: number }
  | { result: 'already-applied'; order: Order }
  /** An event that names no order of ours, or a capture other than the order's, or money we did not sell. */
  | { result: 'ignored'; reason: string }
  | { result: 'unknown-order' };

/** Attempts when two refunds of one order race (each reads the order again after losing). */
const MAX_ATTEMPTS = 10;

/** Our order an event is about: named by the event, or found through its capture at PayPal. */
export async function orderOfEvent(deps: SettleDeps, event: PaymentEvent): Promise<Order | undefined> {
  let orderId = event.orderId;
  if (!orderId && event.captureId) {
    try {
      orderId = (await (await deps.provider()).getCapture(event.captureId)).orderId;
    } catch (err) {
      // PayPal does not know the capture (another merchant's, or a forged id): nothing of ours.
      if (err instanceof PaymentRefused) return undefined;
      throw err;
    }
  }
  return orderId ? deps.orders.get(orderId) : undefined;
}

export async function applyRefundEvent(deps: SettleDeps, event: PaymentEvent, reason: 'purchase-refund' | 'chargeback'): Promise<TakeBackResult> {
  const refund = event.refund;
  if (!refund) return { result: 'ignored', reason: 'the event has no refund id or amount' };
  let order = await orderOfEvent(deps, event);
  if (!order) return { result: 'unknown-order' };
  const orderCents = toCents(order.amount);
  const cents = toCents(refund.amount.value);
  if (orderCents === undefined || cents === undefined || cents <= 0 || refund.amount.currency !== order.currency) {
    return { result: 'ignored', reason: `refund of ${refund.amount.value} ${refund.amount.currency} on a ${order.amount} ${order.currency} order` };
  }
  // A refund can overtake the purchase's own events: credit first (PayPal did capture), then take back.
  if (!PAID.includes(order.status)) {
    await settleStoredOrder(deps, order, 'check');
    order = (await deps.orders.get(order.id)) ?? order;
    if (!PAID.includes(order.status)) return { result: 'ignored', reason: `order ${order.status}: nothing was credited` };
  }
  if (event.captureId && order.captureId && event.captureId !== order.captureId) {
    return { result: 'ignored', reason: `capture ${event.captureId} is not the order's ${order.captureId}` };
  }

  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    if (order.refundIds?.includes(refund.id)) return { result: 'already-applied', order };
    const refundedCents = Math.min(orderCents, (order.refundedCents ?? 0) + cents);
    const creditsTakenBack = creditsFor(order.credits, refundedCents, orderCents);
    const status = reason === 'chargeback' || order.status === 'reversed' ? 'reversed' : refundedCents >= orderCents ? 'refunded' : 'partially_refunded';
    const at = deps.now().toISOString();
    const r = await deps.orders.takeBack(order, { refundId: refund.id, reason, refundedCents, creditsTakenBack, status, at });
    if (r.applied) {
      return { result: 'taken-back', order: { ...order, status, statusAt: at, refundedCents, creditsTakenBack }, balance: r.balance };
    }
    // Another refund of this order (or this one, redelivered) was applied meanwhile: read it again.
    const fresh = await deps.orders.get(order.id);
    if (!fresh) return { result: 'unknown-order' };
    order = fresh;
  }
  throw new Error(`Refund ${refund.id} of order ${order.id} did not settle after ${MAX_ATTEMPTS} attempts`);
}

/** CUSTOMER.DISPUTE.*: the order shows the dispute; RESOLVED closes it (money moves by its own events). */
export async function applyDisputeEvent(deps: SettleDeps, event: PaymentEvent): Promise<TakeBackResult | { result: 'disputed' | 'dispute-resolved'; order: Order }> {
  const order = await orderOfEvent(deps, event);
  if (!order) return { result: 'unknown-order' };
  if (event.captureId && order.captureId !== event.captureId) return { result: 'ignored', reason: `capture ${event.captureId} is not the order's` };
  const resolved = event.eventType === 'CUSTOMER.DISPUTE.RESOLVED';
  // An UPDATED that overtakes RESOLVED must not reopen it.
  if (!resolved && order.dispute === 'resolved') return { result: 'already-applied', order };
  await deps.orders.setDispute(order, resolved ? 'resolved' : 'open');
  return { result: resolved ? 'dispute-resolved' : 'disputed', order };
}
