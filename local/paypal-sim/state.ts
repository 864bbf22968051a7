/**
 * The simulator's state, in memory for as long as it runs: access tokens, orders, captures and the
 * PayPal-Request-Id idempotency records; orders as PayPal represents them; the order transitions
 * (synchronous: no await between a check and its change). Maps only grow, which is fine for a dev server and a test run.
 */
import { randomAlnum, now } from './ids';
import { fromMinor, toMinor } from './money';
import { SIM_BUYER, SIM_PAYEE, type Json, type SimCapture, type SimLink, type SimOrder } from './types';
import type { CreateInput } from './validation';
import type { Webhooks } from './webhooks';

export interface StateOptions {
  /** The simulator's URL (known once it listens): API links start with it. */
  url: () => string;
  /** Where the buyer's browser opens the approval page. */
  publicBaseUrl: () => string;
  webhooks: Webhooks;
}

export type State = ReturnType<typeof createState>;

export function createState(opts: StateOptions) {
  const { webhooks } = opts;
  const tokens = new Map<string, number>(); // access token -> expiry (ms)
  const orders = new Map<string, SimOrder>();
  const createRequests = new Map<string, string>(); // PayPal-Request-Id -> order id
  const captureResponses = new Map<string, string>(); // `${orderId}\n${PayPal-Request-Id}` -> response body
  const captures = new Map<string, { orderId: string; unit: number }>();

  // ---- representations -------------------------------------------------------------------------------------------

  const orderHref = (id: string) => `${opts.url()}/v2/checkout/orders/${id}`;
  const checkoutHref = (id: string) => `${opts.publicBaseUrl()}/checkoutnow?token=${encodeURIComponent(id)}`;

  function orderLinks(o: SimOrder): SimLink[] {
    const self: SimLink = { href: orderHref(o.id), rel: 'self', method: 'GET' };
    const update: SimLink = { href: orderHref(o.id), rel: 'update', method: 'PATCH' };
    const capture: SimLink = { href: `${orderHref(o.id)}/capture`, rel: 'capture', method: 'POST' };
    switch (o.status) {
      case 'PAYER_ACTION_REQUIRED':
        return [self, { href: checkoutHref(o.id), rel: 'payer-action', method: 'GET' }];
      case 'CREATED':
        return [self, { href: checkoutHref(o.id), rel: 'approve', method: 'GET' }, update, capture];
      case 'APPROVED':
        return [self, update, capture];
      case 'COMPLETED':
        return [self];
    }
  }

  function captureLinks(c: SimCapture, orderId: string): SimLink[] {
    return [
      { href: `${opts.url()}/v2/payments/captures/${c.id}`, rel: 'self', method: 'GET' },
      { href: `${opts.url()}/v2/payments/captures/${c.id}/refund`, rel: 'refund', method: 'POST' },
      { href: orderHref(orderId), rel: 'up', method: 'GET' },
    ];
  }

  /** PayPal's minimal representation (create default): id, status, payment_source, links. */
  function minimalOrder(o: SimOrder): Json {
    return { id: o.id, status: o.status, ...(o.payment_source ? { payment_source: o.payment_source } : {}), links: orderLinks(o) };
  }

  /** PayPal's full representation (GET, capture, Prefer: return=representation, webhook resource). */
  function fullOrder(o: SimOrder): Json {
    return structuredClone({
      id: o.id,
      intent: o.intent,
      status: o.status,
      ...(o.payment_source ? { payment_source: o.payment_source } : {}),
      purchase_units: o.purchase_units,
      ...(o.payer ? { payer: o.payer } : {}),
      create_time: o.create_time,
      ...(o.update_time ? { update_time: o.update_time } : {}),
      links: orderLinks(o),
    });
  }

  function captureResource(c: SimCapture, orderId: string): Json {
    return structuredClone({
      ...c,
      supplementary_data: { related_ids: { order_id: orderId } },
      payee: SIM_PAYEE,
    });
  }

  // ---- state transitions (synchronous: no await between check and set) ------------------------------------------

  /** A new order from a checked create request, in its first status (PAYER_ACTION_REQUIRED with payment_source.paypal). */
  function createOrder(input: CreateInput, requestId: string | undefined): SimOrder {
    let id = randomAlnum(17);
    while (orders.has(id)) id = randomAlnum(17);
    const o: SimOrder = {
      id,
      intent: 'CAPTURE',
      status: input.hasPaypalSource ? 'PAYER_ACTION_REQUIRED' : 'CREATED',
      create_time: now(),
      purchase_units: input.units.map((u) => ({ ...u, payee: { ...SIM_PAYEE } })),
      ...(input.hasPaypalSource ? { payment_source: { paypal: {} } } : {}),
      experience_context: input.experience,
      ...(requestId ? { request_id: requestId } : {}),
    };
    orders.set(id, o);
    if (requestId) createRequests.set(requestId, id);
    return o;
  }

  function approveOrder(o: SimOrder): boolean {
    if (o.status !== 'CREATED' && o.status !== 'PAYER_ACTION_REQUIRED') return false;
    o.status = 'APPROVED';
    o.update_time = now();
    o.payer = structuredClone(SIM_BUYER);
    o.payment_source = {
      paypal: {
        email_address: SIM_BUYER.email_address,
        account_id: SIM_BUYER.payer_id,
        account_status: 'VERIFIED',
        name: SIM_BUYER.name,
        address: SIM_BUYER.address,
      },
    };
    webhooks.emit('CHECKOUT.ORDER.APPROVED', 'checkout-order', 'An order has been approved by buyer', fullOrder(o));
    return true;
  }

  function captureOrder(o: SimOrder): SimCapture[] {
    const t = now();
    const made: SimCapture[] = [];
    o.purchase_units.forEach((pu, unit) => {
      const cc = pu.amount.currency_code;
      const gross = toMinor(pu.amount.value, cc);
      let fee = (gross * 349n + 5000n) / 10000n + 49n;
      if (fee > gross) fee = gross;
      const id = randomAlnum(17);
      const c: SimCapture = {
        id,
        status: 'COMPLETED',
        amount: { currency_code: cc, value: pu.amount.value },
        final_capture: true,
        seller_protection: { status: 'ELIGIBLE', dispute_categories: ['ITEM_NOT_RECEIVED', 'UNAUTHORIZED_TRANSACTION'] },
        seller_receivable_breakdown: {
          gross_amount: { currency_code: cc, value: pu.amount.value },
          paypal_fee: { currency_code: cc, value: fromMinor(fee, cc) },
          net_amount: { currency_code: cc, value: fromMinor(gross - fee, cc) },
        },
        ...(pu.custom_id !== undefined ? { custom_id: pu.custom_id } : {}),
        ...(pu.invoice_id !== undefined ? { invoice_id: pu.invoice_id } : {}),
        links: [],
        create_time: t,
        update_time: t,
      };
      c.links = captureLinks(c, o.id);
      pu.payments = { captures: [c] };
      captures.set(id, { orderId: o.id, unit });
      made.push(c);
    });
    o.status = 'COMPLETED';
    o.update_time = t;
    return made;
  }

  return {
    tokens,
    orders,
    captureResponses,
    /** The order an earlier create with this PayPal-Request-Id made. */
    orderForRequest: (requestId: string) => {
      const id = createRequests.get(requestId);
      return id ? orders.get(id) : undefined;
    },
    /** A capture and the order it belongs to. */
    capture: (id: string) => {
      const ref = captures.get(id);
      const c = ref ? orders.get(ref.orderId)?.purchase_units[ref.unit]?.payments?.captures[0] : undefined;
      return ref && c ? { capture: c, orderId: ref.orderId } : undefined;
    },
    minimalOrder,
    fullOrder,
    captureResource,
    createOrder,
    approveOrder,
    captureOrder,
  };
}
