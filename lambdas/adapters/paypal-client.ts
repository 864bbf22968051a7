/**
 * A thin PayPal REST client on fetch (PayPal's server SDK has no base-URL option): OAuth2 client credentials
 * with the token cached until shortly before it expires, Orders v2 create/get/capture, and webhook verification
 * through PayPal's verify-webhook-signature endpoint. PAYPAL_BASE_URL picks the simulator, sandbox or live.
 */
import {
  FundingDeclined,
  OrderAlreadyCaptured,
  OrderNotApproved,
  PaymentProviderUnavailable,
  PaymentRefused,
  type Money,
  type NewProviderOrder,
  type PaymentEvent,
  type PaymentProvider,
  type ProviderCapture,
  type ProviderOrder,
} from '../ports/payments';
import type { WebhookDelivery } from '../ports/webhooks';
import { PaypalOrderId } from '../../contract/payments';

export const PAYPAL_SANDBOX_URL = 'https://api-m.sandbox.paypal.com';

export interface PaypalClientOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  /** The id of our webhook in the PayPal app; verification fails for events sent to any other. */
  webhookId: string;
  fetchImpl?: typeof fetch;
  /** Per request; default 8 s (the routes that call PayPal have 25 s). */
  timeoutMs?: number;
  now?: () => number;
}

/** A token is renewed this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 60_000;
const WEBHOOK_HEADERS = {
  auth_algo: 'paypal-auth-algo',
  cert_url: 'paypal-cert-url',
  transmission_id: 'paypal-transmission-id',
  transmission_sig: 'paypal-transmission-sig',
  transmission_time: 'paypal-transmission-time',
} as const;

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

function money(v: unknown): Money | undefined {
  if (!isRecord(v)) return undefined;
  const currency = str(v.currency_code);
  const value = str(v.value);
  return currency && value ? { currency, value } : undefined;
}

/** PayPal's order representation reduced to what the use cases act on. */
function toProviderOrder(body: unknown): ProviderOrder {
  if (!isRecord(body) || typeof body.id !== 'string' || typeof body.status !== 'string') {
    throw new PaymentProviderUnavailable('PayPal returned an order without id or status');
  }
  const unit = Array.isArray(body.purchase_units) && isRecord(body.purchase_units[0]) ? body.purchase_units[0] : undefined;
  const payments = unit && isRecord(unit.payments) ? unit.payments : undefined;
  const captures = payments && Array.isArray(payments.captures) ? payments.captures.filter(isRecord) : [];
  const links = Array.isArray(body.links) ? body.links.filter(isRecord) : [];
  const approval = links.find((l) => l.rel === 'payer-action') ?? links.find((l) => l.rel === 'approve');
  return {
    id: body.id,
    status: body.status,
    amount: money(unit?.amount),
    customId: str(unit?.custom_id),
    captures: captures.map(toCapture),
    approvalUrl: str(approval?.href),
  };
}

function toCapture(c: Json): ProviderCapture {
  const sup = isRecord(c.supplementary_data) ? c.supplementary_data : {};
  const orderId = isRecord(sup.related_ids) ? sup.related_ids.order_id : undefined;
  return {
    id: String(c.id ?? ''),
    status: String(c.status ?? ''),
    amount: money(c.amount),
    customId: str(c.custom_id),
    ...(PaypalOrderId.safeParse(orderId).success ? { orderId: orderId as string } : {}),
  };
}

export function paypalClient(opts: PaypalClientOptions): PaymentProvider {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const fetchImpl = opts.fetchImpl ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = opts.timeoutMs ?? 8_000;
  const now = opts.now ?? Date.now;
  let token: { value: string; expiresAt: number } | undefined;
  let pendingToken: Promise<string> | undefined;

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new PaymentProviderUnavailable(`PayPal ${init.method ?? 'GET'} ${url} failed: ${(err as Error).message}`);
    }
  }

  /** One token request at a time; callers share it until it nears expiry. */
  function accessToken(): Promise<string> {
    if (token && now() < token.expiresAt - TOKEN_MARGIN_MS) return Promise.resolve(token.value);
    pendingToken ??= (async () => {
      const res = await send(`${base}/v1/oauth2/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: 'grant_type=client_credentials',
      });
      const body = (await res.json().catch(() => ({}))) as Json;
      if (!res.ok || typeof body.access_token !== 'string') {
        // Wrong credentials are a configuration error, not the buyer's: report them as PayPal being unavailable.
        throw new PaymentProviderUnavailable(`PayPal token request failed: HTTP ${res.status} ${str(body.error) ?? ''}`.trim());
      }
      const ttl = typeof body.expires_in === 'number' ? body.expires_in * 1000 : 0;
      token = { value: body.access_token, expiresAt: now() + ttl };
      return body.access_token;
    })().finally(() => {
      pendingToken = undefined;
    });
    return pendingToken;
  }

  /**
   * An authenticated call. A 401 drops the cached token and tries once more with a new one; a network failure or
   * 5xx is retried once too, which is safe because every call is a GET or carries a PayPal-Request-Id.
   */
  async function call(method: 'GET' | 'POST', path: string, init: { body?: unknown; rawBody?: string; requestId?: string } = {}): Promise<Json> {
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = {
        authorization: `Bearer ${await accessToken()}`,
        accept: 'application/json',
        prefer: 'return=representation',
      };
      if (method === 'POST') headers['content-type'] = 'application/json';
      if (init.requestId) headers['paypal-request-id'] = init.requestId;
      let res: Response;
      try {
        res = await send(`${base}${path}`, {
          method,
          headers,
          ...(init.rawBody !== undefined ? { body: init.rawBody } : init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        });
      } catch (err) {
        if (attempt === 0) continue;
        throw err;
      }
      const text = await res.text();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : {};
      } catch {
        body = {};
      }
      if (res.ok) return isRecord(body) ? body : {};
      if (res.status === 401 && attempt === 0) {
        token = undefined;
        continue;
      }
      if (res.status >= 500 || res.status === 429) {
        if (attempt === 0) continue;
        throw new PaymentProviderUnavailable(`PayPal ${method} ${path}: HTTP ${res.status}`);
      }
      throw refusal(res.status, body, `${method} ${path}`);
    }
  }

  return {
    async createOrder(o: NewProviderOrder) {
      const amount = { currency_code: o.amount.currency, value: o.amount.value };
      const body = await call('POST', '/v2/checkout/orders', {
        requestId: o.requestId,
        body: {
          intent: 'CAPTURE',
          purchase_units: [
            {
              reference_id: o.referenceId,
              custom_id: o.customId,
              description: o.description,
              amount: { ...amount, breakdown: { item_total: amount } },
              items: [{ name: o.itemName, quantity: '1', unit_amount: amount, category: 'DIGITAL_GOODS' }],
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                brand_name: o.brandName,
                user_action: 'PAY_NOW',
                shipping_preference: 'NO_SHIPPING',
                // Credits are delivered at once: no eCheck or other payment that clears days later.
                payment_method_preference: 'IMMEDIATE_PAYMENT_REQUIRED',
                return_url: o.returnUrl,
                cancel_url: o.cancelUrl,
              },
            },
          },
        },
      });
      return toProviderOrder(body);
    },

    async getOrder(id) {
      return toProviderOrder(await call('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`));
    },

    async captureOrder(id, requestId) {
      return toProviderOrder(await call('POST', `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, { requestId }));
    },

    async getCapture(id) {
      const body = await call('GET', `/v2/payments/captures/${encodeURIComponent(id)}`);
      if (typeof body.id !== 'string') throw new PaymentProviderUnavailable('PayPal returned a capture without id');
      return toCapture(body);
    },

    async parseWebhook(d: WebhookDelivery) {
      if (!(await verify(d))) return undefined;
      return paymentEventOf(JSON.parse(d.rawBody) as Json);
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
    const head = JSON.stringify({ ...fields, webhook_id: opts.webhookId });
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
  const out: PaymentEvent = { id: str(event.id) ?? '', eventType: type };
  let orderId: unknown;
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
  if (PaypalOrderId.safeParse(orderId).success) out.orderId = orderId as string;
  return out;
}

/** Capture issues after which PayPal says to send the buyer back to choose another funding source. */
const FUNDING_ISSUES = new Set(['INSTRUMENT_DECLINED', 'PAYER_ACTION_REQUIRED', 'REDIRECT_PAYER_FOR_ALTERNATE_FUNDING']);

function refusal(status: number, body: unknown, what: string): PaymentRefused {
  const b = isRecord(body) ? body : {};
  const name = str(b.name) ?? `HTTP_${status}`;
  const details = Array.isArray(b.details) ? b.details.filter(isRecord) : [];
  const issue = str(details[0]?.issue);
  const message = `PayPal ${what}: ${name}${issue ? ` ${issue}` : ''}${str(b.debug_id) ? ` (debug_id ${str(b.debug_id)})` : ''}`;
  if (issue === 'ORDER_ALREADY_CAPTURED') return new OrderAlreadyCaptured(message, status, name, issue);
  if (issue === 'ORDER_NOT_APPROVED') return new OrderNotApproved(message, status, name, issue);
  if (issue && FUNDING_ISSUES.has(issue)) {
    const e = new FundingDeclined(message, status, name, issue);
    const links = Array.isArray(b.links) ? b.links.filter(isRecord) : [];
    const redirect = str(links.find((l) => l.rel === 'redirect' || l.rel === 'payer-action' || l.rel === 'approve')?.href);
    if (redirect && /^https?:\/\//.test(redirect)) e.redirectUrl = redirect;
    return e;
  }
  return new PaymentRefused(message, status, name, issue);
}
