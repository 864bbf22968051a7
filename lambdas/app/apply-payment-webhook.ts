import { Messages } from '../../contract/errors';
import { Unauthorized } from '../domain/errors';
import type { WebhookDelivery, WebhookInbox } from '../ports/webhooks';
import { settleOrder, type SettleDeps, type Settlement } from './steps/settle-order';
import { applyDisputeEvent, applyRefundEvent } from './steps/take-back';

export interface ApplyPaymentWebhookDeps extends SettleDeps {
  inbox: WebhookInbox;
}

export type WebhookOutcome = { handled: 'duplicate' } | { handled: 'ignored'; eventType: string } | { handled: string; eventType: string };

/** Capture events PayPal sends about a capture's own state: read the order at PayPal and act on what it says. */
const CAPTURE_STATE_EVENTS = new Set(['PAYMENT.CAPTURE.COMPLETED', 'PAYMENT.CAPTURE.PENDING', 'PAYMENT.CAPTURE.DENIED', 'PAYMENT.CAPTURE.DECLINED']);

/**
 * POST /api/webhooks/paypal: the provider's adapter verifies (with PayPal) and parses the delivery; the event is
 * applied once per event id, and each effect is guarded on its own, so events in any order and any number of
 * times converge. CHECKOUT.ORDER.APPROVED captures and credits (the buyer may never come back); the capture's
 * COMPLETED, PENDING, DENIED and DECLINED read PayPal's order (credit, pending, failed); REFUNDED and REVERSED take
 * the credits back; CUSTOMER.DISPUTE.* mark the order disputed. Throws while PayPal or our table cannot be reached,
 * so PayPal delivers the event again.
 */
export async function applyPaymentWebhook(deps: ApplyPaymentWebhookDeps, delivery: WebhookDelivery): Promise<WebhookOutcome> {
  const provider = await deps.provider();
  const event = await provider.parseWebhook(delivery);
  if (!event) throw new Unauthorized(Messages.invalidWebhookSignature);
  if (!event.id) return { handled: 'ignored', eventType: 'unknown' };
  const { eventType, orderId } = event;
  if (await deps.inbox.seen(event.id)) return { handled: 'duplicate' };

  let handled: string = 'ignored';
  let about = orderId;
  if (eventType === 'CHECKOUT.ORDER.APPROVED' && orderId) {
    handled = (await settleOrder(deps, orderId, 'capture')).result;
  } else if (CAPTURE_STATE_EVENTS.has(eventType) && orderId) {
    const s: Settlement = await settleOrder(deps, orderId, 'check');
    handled = s.result;
  } else if (eventType === 'PAYMENT.CAPTURE.REFUNDED' || eventType === 'PAYMENT.CAPTURE.REVERSED') {
    const r = await applyRefundEvent(deps, event, eventType === 'PAYMENT.CAPTURE.REVERSED' ? 'chargeback' : 'purchase-refund');
    handled = r.result;
    if ('order' in r) about = r.order.id;
  } else if (eventType.startsWith('CUSTOMER.DISPUTE.')) {
    const r = await applyDisputeEvent(deps, event);
    handled = r.result;
    if ('order' in r) about = r.order.id;
  }
  await deps.inbox.record(event.id, { eventType, ...(about ? { orderId: about } : {}), outcome: handled });
  return { handled, eventType };
}
