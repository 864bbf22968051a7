/**
 * PayPal's webhooks: each delivery verified through PayPal's verify-webhook-signature endpoint (PayPal signs with a
 * certificate chain we would otherwise have to fetch and check ourselves), then reduced to what the use cases act on.
 */
import { PaypalOrderId } from '../../contract/payments';
import { PaypalSubscriptionId } from '../../contract/subscriptions';
import { PaymentRefused, type Money, type PaymentEvent, type PaymentWebhooks } from '../ports/payments';
import type { WebhookDelivery } from '../ports/webhooks';
import { isRecord, str, type Json, type PaypalApi } from './paypal-api';

const WEBHOOK_HEADERS = {
  auth_algo: 'paypal-auth-algo',
  cert_url: 'paypal-cert-url',
  transmission_id: 'paypal-transmission-id',
  transmission_sig: 'paypal-transmission-sig',
  transmission_time: 'paypal-transmission-time',
} as const;

function money(v: unknown): Money | undefined {
  if (!isRecord(v)) return undefined;
  const currency = str(v.currency_code);
  const value = str(v.value);
  return currency && value ? { currency, value } : undefined;
}

/** `webhookId`: the id of our webhook in the PayPal app; verification fails for events sent to any other. */
export function paypalWebhooks(api: PaypalApi, webhookId: string): PaymentWebhooks {
  const { call } = api;
  return {
    async parse(d: WebhookDelivery) {
      if (!(await verify(d))) return undefined;
      const event = paymentEventOf(JSON.parse(d.rawBody) as Json);
      // PayPal names every event; one without an id could not be handled once, and is not PayPal's.
      return event.eventId ? event : undefined;
    },
  };

  /** True when PayPal confirms the delivery is genuine and meant for our webhook. */
  async function verify(d: WebhookDelivery): Promise<boolean> {
    const fields: Record<string, string> = {};
    for (const [field, header] of Object.entries(WEBHOOK_HEADERS)) {
      const v = d.headers[header];
      if (!v) return false;
      fields[field] = v;
    }
    let event: unknown;
    try {
      event = JSON.parse(d.rawBody);
    } catch {
      return false;
    }
    if (!isRecord(event)) return false;
    // PayPal checks the signature over the event exactly as it sent it: the raw body goes into the request as it
    // was received, never parsed and serialised again (that can change bytes: escapes, number forms, key order).
    const head = JSON.stringify({ ...fields, webhook_id: webhookId });
    const body = `${head.slice(0, -1)},"webhook_event":${d.rawBody}}`;
    try {
      const res = await call('POST', '/v1/notifications/verify-webhook-signature', { rawBody: body });
      return res.verification_status === 'SUCCESS';
    } catch (err) {
      // A 4xx means PayPal would not even check these values (malformed headers): not genuine.
      if (err instanceof PaymentRefused) return false;
      throw err;
    }
  }
}

/** The last path segment of the link with this rel (a refund's `up` link names its capture). */
function linkedId(resource: Json, rel: string): string | undefined {
  const links = Array.isArray(resource.links) ? resource.links.filter(isRecord) : [];
  const href = str(links.find((l) => l.rel === rel)?.href);
  const id = href ? decodeURIComponent(href.replace(/\/+$/, '').split('/').pop() ?? '') : undefined;
  return id && /^[A-Za-z0-9-]{1,64}$/.test(id) ? id : undefined;
}

const CAPTURE_ID = /^[A-Za-z0-9-]{1,64}$/;
const captureIdOf = (v: unknown) => (typeof v === 'string' && CAPTURE_ID.test(v) ? v : undefined);

/**
 * What an event is about: the order (CHECKOUT.ORDER.*: the resource; PAYMENT.CAPTURE.*: the capture's
 * supplementary_data), the capture (a capture event's resource; a refund's or reversal's `up` link; a dispute's
 * seller_transaction_id), and for refunds and reversals the refund and its amount (positive).
 */
export function paymentEventOf(event: Json): PaymentEvent {
  const type = String(event.event_type ?? '');
  const resource = isRecord(event.resource) ? event.resource : {};
  const out: PaymentEvent = { eventId: str(event.id) ?? '', eventType: type };
  let orderId: unknown;
  let subscriptionId: unknown;
  if (type.startsWith('CHECKOUT.ORDER.')) orderId = resource.id;
  if (type.startsWith('PAYMENT.CAPTURE.')) {
    const sup = isRecord(resource.supplementary_data) ? resource.supplementary_data : {};
    orderId = isRecord(sup.related_ids) ? sup.related_ids.order_id : undefined;
    if (type === 'PAYMENT.CAPTURE.REFUNDED' || type === 'PAYMENT.CAPTURE.REVERSED') {
      const captureId = captureIdOf(isRecord(sup.related_ids) ? sup.related_ids.capture_id : undefined) ?? linkedId(resource, 'up');
      const amount = money(resource.amount);
      const refundId = captureIdOf(resource.id);
      if (captureId) out.captureId = captureId;
      if (refundId && amount) out.refund = { id: refundId, amount: { ...amount, value: amount.value.replace(/^-/, '') } };
    } else {
      const captureId = captureIdOf(resource.id);
      if (captureId) out.captureId = captureId;
    }
  }
  if (type.startsWith('CUSTOMER.DISPUTE.')) {
    const tx = Array.isArray(resource.disputed_transactions) ? resource.disputed_transactions.filter(isRecord)[0] : undefined;
    const captureId = captureIdOf(tx?.seller_transaction_id);
    if (captureId) out.captureId = captureId;
  }
  if (type.startsWith('BILLING.SUBSCRIPTION.')) subscriptionId = resource.id;
  if (type.startsWith('PAYMENT.SALE.')) {
    // A v1 sale (COMPLETED) or its refund (REFUNDED, REVERSED: the sale in sale_id, the amount as a negative total).
    subscriptionId = resource.billing_agreement_id;
    const amount = isRecord(resource.amount) && typeof resource.amount.total === 'string' && typeof resource.amount.currency === 'string'
      ? { currency: resource.amount.currency, value: resource.amount.total.replace(/^-/, '') }
      : undefined;
    const id = captureIdOf(resource.id);
    if (type === 'PAYMENT.SALE.COMPLETED') {
      if (id && amount) out.sale = { id, amount, time: str(resource.create_time) ?? '' };
    } else {
      // The sale is stored as an order under its own id, so a refund names it as both.
      orderId = resource.sale_id;
      const saleId = captureIdOf(resource.sale_id);
      if (saleId) out.captureId = saleId;
      if (id && amount) out.refund = { id, amount };
    }
  }
  if (PaypalOrderId.safeParse(orderId).success) out.orderId = orderId as string;
  if (PaypalSubscriptionId.safeParse(subscriptionId).success) out.subscriptionId = subscriptionId as string;
  return out;
}

