import type { PaymentEvent, PaymentWebhooks } from '../ports/payments';
import type { WebhookDelivery, WebhookInbox } from '../ports/webhooks';
import { receiveWebhook } from './steps/receive-webhook';
import { settleOrder, type SettleDeps } from './steps/settle-order';
import { grantSale, syncSubscription, type SubscriptionDeps } from './steps/subscription-payments';
import { applyDisputeEvent, applyRefundEvent } from './steps/take-back';

export interface ApplyPaymentWebhookDeps extends SettleDeps, Pick<SubscriptionDeps, 'subscriptions' | 'subscriptionProvider'> {
  webhooks: () => Promise<PaymentWebhooks>;
  inbox: WebhookInbox;
}

export type WebhookOutcome = { handled: 'duplicate' } | { handled: 'ignored'; eventType: string } | { handled: string; eventType: string };

/** Capture events PayPal sends about a capture's own state: read the order at PayPal and act on what it says. */
const CAPTURE_STATE_EVENTS = new Set(['PAYMENT.CAPTURE.COMPLETED', 'PAYMENT.CAPTURE.PENDING', 'PAYMENT.CAPTURE.DENIED', 'PAYMENT.CAPTURE.DECLINED']);

/**
 * POST /api/webhooks/paypal (steps/receive-webhook: verify with PayPal, claim, apply, release on failure), and each
 * effect is guarded on its own too, so events in any order converge. CHECKOUT.ORDER.APPROVED captures and credits
 * (the buyer may never come back); the capture's COMPLETED, PENDING, DENIED and DECLINED read PayPal's order
 * (credit, pending, failed); REFUNDED and REVERSED take the credits back; CUSTOMER.DISPUTE.* mark the order
 * disputed. Plans: BILLING.SUBSCRIPTION.* read the subscription at PayPal (status, plan, next billing, its payments);
 * PAYMENT.SALE.COMPLETED grants a billing payment once (its sale id) and reads the plan again (next billing, a changed
 * plan), or refunds it when its plan was refused (steps/subscription-payments); PAYMENT.SALE.REFUNDED and REVERSED take its
 * credits back through the same claw-back as a pack's. Throws while PayPal or our table cannot be reached, so PayPal
 * delivers the event again.
 */
export async function applyPaymentWebhook(deps: ApplyPaymentWebhookDeps, delivery: WebhookDelivery): Promise<WebhookOutcome> {
  const received = await receiveWebhook(deps, delivery, {
    claimInfo: (event) => ({ eventType: event.eventType, ...(event.orderId ? { orderId: event.orderId } : {}) }),
    apply: (event) => applyEvent(deps, event),
    outcome: (r) => ({ outcome: r.handled, ...(r.about ? { orderId: r.about } : {}) }),
  });
  if (received.duplicate) return { handled: 'duplicate' };
  return { handled: received.result.handled, eventType: received.result.eventType };
}

async function applyEvent(deps: ApplyPaymentWebhookDeps, event: PaymentEvent): Promise<{ handled: string; eventType: string; about?: string }> {
  const { eventType, orderId } = event;
  if (eventType.startsWith('BILLING.SUBSCRIPTION.') && event.subscriptionId) {
    // Whatever the event says, PayPal's current state is read (events overtake each other), with its payments.
    const s = await syncSubscription(deps, event.subscriptionId);
    return { handled: s ? `subscription-${s.status}` : 'unknown-subscription', eventType, about: event.subscriptionId };
  }
  if (eventType === 'PAYMENT.SALE.COMPLETED' && event.sale && event.subscriptionId) {
    const handled = await grantSale(deps, event.subscriptionId, event.sale);
    // A billed cycle moves PayPal's next billing time (and may start a changed plan): read the plan again.
    // (Only for a new grant: a redelivery or a sale granted by another trigger found the plan read already. The other
    // payments are left to their own events, the return and the reconciler: granting them all from every sale's
    // event raced N events' grants on one account.)
    if (handled === 'granted') await syncSubscription(deps, event.subscriptionId, { grants: false });
    return { handled, eventType, about: event.sale.id };
  }
  if ((eventType === 'PAYMENT.SALE.REFUNDED' || eventType === 'PAYMENT.SALE.REVERSED') && event.captureId) {
    // A refund can overtake its sale's own event: grant the sale first (PayPal did take it), then take it back.
    if (!(await deps.orders.get(event.captureId))) {
      const sale = await (await deps.subscriptionProvider()).getSale(event.captureId);
      if (sale.subscriptionId) await grantSale(deps, sale.subscriptionId, sale);
    }
    const r = await applyRefundEvent(deps, event, eventType === 'PAYMENT.SALE.REVERSED' ? 'chargeback' : 'purchase-refund');
    return { handled: r.result, eventType, ...('order' in r ? { about: r.order.id } : {}) };
  }
  if (eventType === 'CHECKOUT.ORDER.APPROVED' && orderId) return { handled: (await settleOrder(deps, orderId, 'capture')).result, eventType };
  if (CAPTURE_STATE_EVENTS.has(eventType) && orderId) return { handled: (await settleOrder(deps, orderId, 'check')).result, eventType };
  if (eventType === 'PAYMENT.CAPTURE.REFUNDED' || eventType === 'PAYMENT.CAPTURE.REVERSED') {
    const r = await applyRefundEvent(deps, event, eventType === 'PAYMENT.CAPTURE.REVERSED' ? 'chargeback' : 'purchase-refund');
    return { handled: r.result, eventType, ...('order' in r ? { about: r.order.id } : {}) };
  }
  if (eventType.startsWith('CUSTOMER.DISPUTE.')) {
    const r = await applyDisputeEvent(deps, event);
    return { handled: r.result, eventType, ...('order' in r ? { about: r.order.id } : {}) };
  }
  return { handled: 'ignored', eventType };
}
