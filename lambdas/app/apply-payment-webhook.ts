import { Messages } from '../../contract/errors';
import { Unauthorized } from '../domain/errors';
import type { WebhookDelivery, WebhookInbox } from '../ports/webhooks';
import { settleOrder, type SettleDeps, type Settlement } from './steps/settle-order';

export interface ApplyPaymentWebhookDeps extends SettleDeps {
  inbox: WebhookInbox;
}

export type WebhookOutcome = { handled: 'duplicate' } | { handled: 'ignored'; eventType: string } | { handled: Settlement['result']; eventType: string };

/**
 * POST /api/webhooks/paypal: the provider's adapter verifies (with PayPal) and parses the delivery; the event is
 * applied once per event id. CHECKOUT.ORDER.APPROVED captures and credits (the buyer may never come back to the
 * return URL); PAYMENT.CAPTURE.COMPLETED credits an order whose capture completed later. Throws while PayPal or
 * our table cannot be reached, so PayPal delivers the event again.
 */
export async function applyPaymentWebhook(deps: ApplyPaymentWebhookDeps, delivery: WebhookDelivery): Promise<WebhookOutcome> {
  const provider = await deps.provider();
  const event = await provider.parseWebhook(delivery);
  if (!event) throw new Unauthorized(Messages.invalidWebhookSignature);
  if (!event.id) return { handled: 'ignored', eventType: 'unknown' };
  const { eventType, orderId } = event;
  if (await deps.inbox.seen(event.id)) return { handled: 'duplicate' };

  let outcome: WebhookOutcome = { handled: 'ignored', eventType };
  if (orderId) {
    const s = await settleOrder(deps, orderId, eventType === 'CHECKOUT.ORDER.APPROVED' ? 'capture' : 'check');
    outcome = { handled: s.result, eventType };
  }
  await deps.inbox.record(event.id, { eventType, ...(orderId ? { orderId } : {}), outcome: outcome.handled });
  return outcome;
}
