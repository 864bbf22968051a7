/**
 * The simulator's state: access tokens, orders, captures and the PayPal-Request-Id idempotency records; orders as
 * PayPal represents them; the order transitions (synchronous: no await between a check and its change). In memory,
 * and with a data folder also on disk after every change (snapshot/restore, persist.ts). Maps only grow, which is
 * fine for a dev server and a test run.
 */
import { randomAlnum, now } from './ids';
import { fromMinor, toMinor } from './money';
import { apiError } from './errors';
import { SIM_BUYER, SIM_PAYEE, type Json, type SimCapture, type SimDispute, type SimFundingOutcome, type SimLink, type SimMoney, type SimOrder, type SimRefund } from './types';
import type { CreateInput, RefundInput } from './validation';
import type { Webhooks } from './webhooks';

export interface StateOptions {
  /** The simulator's URL (known once it listens): API links start with it. */
  url: () => string;
  /** Where the buyer's browser opens the approval page. */
  publicBaseUrl: () => string;
  webhooks: Webhooks;
  /** How long an order may wait for the buyer's approval. */
  approvalWindowMs: number;
}

export type State = ReturnType<typeof createState>;

export interface StateSnapshot {
  tokens: [string, number][];
  orders: [string, SimOrder][];
  createRequests: [string, string][];
  captureResponses: [string, string][];
  captures: [string, { orderId: string; unit: number }][];
  refunds: [string, { refund: SimRefund; captureId: string }][];
  refundRequests: [string, string][];
  disputes: [string, SimDispute][];
}

export function createState(opts: StateOptions) {
  const { webhooks } = opts;
  const tokens = new Map<string, number>(); // access token -> expiry (ms)
  const orders = new Map<string, SimOrder>();
  const createRequests = new Map<string, string>(); // PayPal-Request-Id -> order id
  const captureResponses = new Map<string, string>(); // `${orderId}\n${PayPal-Request-Id}` -> response body
  const captures = new Map<string, { orderId: string; unit: number }>();
  const refunds = new Map<string, { refund: SimRefund; captureId: string }>();
  const refundRequests = new Map<string, string>(); // `${captureId}\n${PayPal-Request-Id}` -> refund id
  const disputes = new Map<string, SimDispute>();

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

  function refundLinks(r: SimRefund, captureId: string): SimLink[] {
    return [
      { href: `${opts.url()}/v2/payments/refunds/${r.id}`, rel: 'self', method: 'GET' },
      { href: `${opts.url()}/v2/payments/captures/${captureId}`, rel: 'up', method: 'GET' },
    ];
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

  /** True when the buyer can no longer approve it: never approved within the approval window. */
  function expired(o: SimOrder): boolean {
    return (o.status === 'CREATED' || o.status === 'PAYER_ACTION_REQUIRED') && Date.now() - Date.parse(o.create_time) > opts.approvalWindowMs;
  }

  /**
   * The buyer approves (again, after INSTRUMENT_DECLINED: PayPal lets the buyer choose another funding source for
   * an approved order), with what the funding source will do at capture.
   */
  function approveOrder(o: SimOrder, funding: SimFundingOutcome = 'COMPLETED'): boolean {
    if (o.status !== 'CREATED' && o.status !== 'PAYER_ACTION_REQUIRED' && o.status !== 'APPROVED') return false;
    if (expired(o)) return false;
    const again = o.status === 'APPROVED';
    o.funding = funding;
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
    if (!again) webhooks.emit('CHECKOUT.ORDER.APPROVED', 'checkout-order', 'An order has been approved by buyer', fullOrder(o));
    return true;
  }

  /**
   * Captures an approved order with the buyer's funding outcome. INSTRUMENT_DECLINED throws PayPal's 422 with a
   * redirect link back to the approval page (the order stays APPROVED); the others make a capture.
   */
  function captureOrder(o: SimOrder): SimCapture[] {
    if (o.funding === 'INSTRUMENT_DECLINED') {
      const e = apiError(422, 'UNPROCESSABLE_ENTITY', [
        { issue: 'INSTRUMENT_DECLINED', description: "The instrument presented  was either declined by the processor or bank, or it can't be used for this payment." },
      ]);
      e.body.links = [
        { href: 'https://developer.paypal.com/docs/api/orders/v2/#error-INSTRUMENT_DECLINED', rel: 'information_link', method: 'GET' },
        { href: checkoutHref(o.id), rel: 'redirect', method: 'GET' },
      ];
      throw e;
    }
    const t = now();
    const status = o.funding === 'PENDING' ? 'PENDING' : o.funding === 'DECLINED' ? 'DECLINED' : 'COMPLETED';
    const made: SimCapture[] = [];
    o.purchase_units.forEach((pu, unit) => {
      const cc = pu.amount.currency_code;
      const gross = toMinor(pu.amount.value, cc);
      let fee = (gross * 349n + 5000n) / 10000n + 49n;
      if (fee > gross) fee = gross;
      const id = randomAlnum(17);
      const c: SimCapture = {
        id,
        status,
        ...(status === 'PENDING' ? { status_details: { reason: 'PENDING_REVIEW' } } : {}),
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

  // ---- after the capture: pending reviews, refunds, reversals, disputes ------------------------------------------

  const captureOf = (id: string) => {
    const ref = captures.get(id);
    const c = ref ? orders.get(ref.orderId)?.purchase_units[ref.unit]?.payments?.captures[0] : undefined;
    return ref && c ? { capture: c, orderId: ref.orderId } : undefined;
  };

  const refundedMinor = (captureId: string) =>
    [...refunds.values()].filter((r) => r.captureId === captureId).reduce((sum, r) => sum + toMinor(r.refund.amount.value, r.refund.amount.currency_code), 0n);

  const amountLabel = (m: SimMoney) => `${m.currency_code === 'USD' ? '$ ' : ''}${m.value} ${m.currency_code}`;

  /** A PENDING capture clears (PAYMENT.CAPTURE.COMPLETED) or is denied (PAYMENT.CAPTURE.DENIED, status DECLINED). */
  function settlePending(captureId: string, outcome: 'complete' | 'deny'): SimCapture {
    const found = captureOf(captureId);
    if (!found) throw apiError(404, 'RESOURCE_NOT_FOUND', [{ field: 'capture_id', value: captureId, location: 'path', issue: 'INVALID_RESOURCE_ID', description: 'Specified resource ID does not exist.' }]);
    const c = found.capture;
    if (c.status !== 'PENDING') throw apiError(422, 'UNPROCESSABLE_ENTITY', [{ issue: 'CAPTURE_NOT_PENDING', description: `The capture is ${c.status}, not PENDING.` }]);
    c.status = outcome === 'complete' ? 'COMPLETED' : 'DECLINED';
    delete c.status_details;
    c.update_time = now();
    if (outcome === 'complete') webhooks.emit('PAYMENT.CAPTURE.COMPLETED', 'capture', `Payment completed for ${amountLabel(c.amount)}`, captureResource(c, found.orderId));
    else webhooks.emit('PAYMENT.CAPTURE.DENIED', 'capture', `Payment denied for ${amountLabel(c.amount)}`, captureResource(c, found.orderId));
    return c;
  }

  /**
   * POST /v2/payments/captures/{id}/refund (and a reversal, `kind: 'reversal'`): refunds what is left, or the
   * amount asked, with PayPal's 422s (pending or declined capture, fully refunded, more than is left, another
   * currency). Emits PAYMENT.CAPTURE.REFUNDED or PAYMENT.CAPTURE.REVERSED with the refund as its resource.
   */
  function refundCapture(captureId: string, input: RefundInput, kind: 'refund' | 'reversal' = 'refund', requestId?: string): SimRefund {
    const key = requestId ? `${captureId}\n${requestId}` : undefined;
    const earlier = key ? refundRequests.get(key) : undefined;
    if (earlier) return refunds.get(earlier)!.refund;
    const found = captureOf(captureId);
    if (!found) throw apiError(404, 'RESOURCE_NOT_FOUND', [{ field: 'capture_id', value: captureId, location: 'path', issue: 'INVALID_RESOURCE_ID', description: 'Specified resource ID does not exist. Please check the resource ID and try again.' }]);
    const c = found.capture;
    const cc = c.amount.currency_code;
    const unprocessable = (issue: string, description: string) => apiError(422, 'UNPROCESSABLE_ENTITY', [{ issue, description }]);
    if (c.status === 'PENDING') throw unprocessable('PENDING_CAPTURE', 'Cannot initiate a refund as the capture is pending. Capture is typically pending when the payer has funded the transaction using e-check/bank funded.');
    if (c.status === 'DECLINED') throw unprocessable('REFUND_NOT_ALLOWED', 'Capture cannot be refunded.');
    const left = toMinor(c.amount.value, cc) - refundedMinor(captureId);
    if (left <= 0n) throw unprocessable('CAPTURE_FULLY_REFUNDED', 'The capture has already been fully refunded');
    if (input.amount && input.amount.currency_code !== cc) throw unprocessable('REFUND_CAPTURE_CURRENCY_MISMATCH', 'Refund must be in the same currency as the capture');
    const minor = input.amount ? toMinor(input.amount.value, cc) : left;
    if (minor > left) throw unprocessable('REFUND_AMOUNT_EXCEEDED', 'The refund amount must be less than or equal to the capture amount that has not yet been refunded.');
    const t = now();
    const value = fromMinor(minor, cc);
    const fee = (minor * 349n + 5000n) / 10000n;
    const refund: SimRefund = {
      id: randomAlnum(17),
      status: 'COMPLETED',
      amount: { currency_code: cc, value },
      ...(input.note_to_payer ? { note_to_payer: input.note_to_payer } : {}),
      seller_payable_breakdown: {
        gross_amount: { currency_code: cc, value },
        paypal_fee: { currency_code: cc, value: fromMinor(fee, cc) },
        net_amount: { currency_code: cc, value: fromMinor(minor - fee, cc) },
        total_refunded_amount: { currency_code: cc, value: fromMinor(refundedMinor(captureId) + minor, cc) },
      },
      ...(input.custom_id ?? c.custom_id ? { custom_id: input.custom_id ?? c.custom_id } : {}),
      ...(input.invoice_id ? { invoice_id: input.invoice_id } : {}),
      create_time: t,
      update_time: t,
      links: [],
    };
    refund.links = refundLinks(refund, captureId);
    refunds.set(refund.id, { refund, captureId });
    if (key) refundRequests.set(key, refund.id);
    c.status = minor === left ? 'REFUNDED' : 'PARTIALLY_REFUNDED';
    c.update_time = t;
    if (kind === 'refund') {
      webhooks.emit('PAYMENT.CAPTURE.REFUNDED', 'refund', `A ${amountLabel(refund.amount)} capture payment was refunded`, structuredClone(refund));
    } else {
      webhooks.emit('PAYMENT.CAPTURE.REVERSED', 'refund', `A ${amountLabel(refund.amount)} capture payment was reversed`, structuredClone(refund));
    }
    return refund;
  }

  /** A buyer opens a dispute of a capture (CUSTOMER.DISPUTE.CREATED). */
  function openDispute(captureId: string): SimDispute {
    const found = captureOf(captureId);
    if (!found) throw apiError(404, 'RESOURCE_NOT_FOUND', [{ field: 'capture_id', value: captureId, location: 'path', issue: 'INVALID_RESOURCE_ID', description: 'Specified resource ID does not exist.' }]);
    const c = found.capture;
    const t = now();
    const id = `PP-D-${randomAlnum(5)}`;
    const d: SimDispute = {
      dispute_id: id,
      create_time: t,
      update_time: t,
      disputed_transactions: [{ seller_transaction_id: c.id, create_time: c.create_time, transaction_status: 'COMPLETED', gross_amount: c.amount, ...(c.custom_id ? { custom: c.custom_id } : {}) }],
      reason: 'UNAUTHORISED',
      status: 'OPEN',
      dispute_amount: c.amount,
      dispute_life_cycle_stage: 'CHARGEBACK',
      dispute_channel: 'EXTERNAL',
      links: [{ href: `${opts.url()}/v1/customer/disputes/${id}`, rel: 'self', method: 'GET' }],
    };
    disputes.set(id, d);
    webhooks.emit('CUSTOMER.DISPUTE.CREATED', 'dispute', `A new dispute opened with Case # ${id}`, structuredClone(d));
    return d;
  }

  /**
   * PayPal decides a dispute (CUSTOMER.DISPUTE.RESOLVED). In the buyer's favour the money goes back as a reversal
   * (PAYMENT.CAPTURE.REVERSED) of what is left of the capture.
   */
  function resolveDispute(id: string, favour: 'buyer' | 'seller'): SimDispute {
    const d = disputes.get(id);
    if (!d) throw apiError(404, 'RESOURCE_NOT_FOUND', [{ field: 'dispute_id', value: id, location: 'path', issue: 'INVALID_RESOURCE_ID', description: 'Specified resource ID does not exist.' }]);
    if (d.status === 'RESOLVED') throw apiError(422, 'UNPROCESSABLE_ENTITY', [{ issue: 'DISPUTE_ALREADY_RESOLVED', description: 'The dispute is already resolved.' }]);
    d.status = 'RESOLVED';
    d.update_time = now();
    const captureId = d.disputed_transactions[0]!.seller_transaction_id;
    let reversal: SimRefund | undefined;
    if (favour === 'buyer') reversal = refundCapture(captureId, {}, 'reversal');
    d.dispute_outcome = favour === 'buyer' ? { outcome_code: 'RESOLVED_BUYER_FAVOUR', amount_refunded: reversal!.amount } : { outcome_code: 'RESOLVED_SELLER_FAVOUR' };
    webhooks.emit('CUSTOMER.DISPUTE.RESOLVED', 'dispute', `A dispute was resolved with case # ${id}`, structuredClone(d));
    return d;
  }

  /** Everything above as JSON (persist.ts keeps it on disk: a restart forgets nothing, as PayPal does not). */
  function snapshot(): StateSnapshot {
    return {
      tokens: [...tokens],
      orders: [...orders],
      createRequests: [...createRequests],
      captureResponses: [...captureResponses],
      captures: [...captures],
      refunds: [...refunds],
      refundRequests: [...refundRequests],
      disputes: [...disputes],
    };
  }

  function restore(snap: StateSnapshot): void {
    const fill = <K, V>(map: Map<K, V>, entries: [K, V][] | undefined) => {
      map.clear();
      for (const [k, v] of entries ?? []) map.set(k, v);
    };
    fill(tokens, snap.tokens);
    fill(orders, snap.orders);
    fill(createRequests, snap.createRequests);
    fill(captureResponses, snap.captureResponses);
    fill(captures, snap.captures);
    fill(refunds, snap.refunds);
    fill(refundRequests, snap.refundRequests);
    fill(disputes, snap.disputes);
  }

  return {
    snapshot,
    restore,
    tokens,
    orders,
    captureResponses,
    refunds,
    disputes,
    expired,
    settlePending,
    refundCapture,
    openDispute,
    resolveDispute,
    refundResource: (id: string) => refunds.get(id)?.refund,
    /** The order an earlier create with this PayPal-Request-Id made. */
    orderForRequest: (requestId: string) => {
      const id = createRequests.get(requestId);
      return id ? orders.get(id) : undefined;
    },
    /** A capture and the order it belongs to. */
    capture: captureOf,
    /** Every capture, newest first, with its order (the dashboard). */
    allCaptures: () =>
      [...captures.keys()]
        .map(captureOf)
        .filter((x) => x !== undefined)
        .reverse(),
    minimalOrder,
    fullOrder,
    captureResource,
    createOrder,
    approveOrder,
    captureOrder,
  };
}
