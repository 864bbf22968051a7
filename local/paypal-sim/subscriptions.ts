/**
 * PayPal's Catalog Products v1 and Subscriptions v1, as its published OpenAPI documents describe them
 * (catalogs_products_v1.json, billing_subscriptions_v1.json): products, billing plans, subscriptions and their states,
 * the buyer's approval page, the transactions (sales) each billing cycle makes, and the BILLING.SUBSCRIPTION.* and
 * PAYMENT.SALE.* webhooks. Strict where PayPal is: required fields, lengths and enums (400 INVALID_REQUEST), states
 * (422 SUBSCRIPTION_STATUS_INVALID, PLAN_STATUS_INVALID...), unknown ids (404 RESOURCE_NOT_FOUND).
 *
 * Endpoints (Bearer, as the rest of the API):
 * - POST/GET /v1/catalogs/products, GET /v1/catalogs/products/{id}
 * - POST/GET /v1/billing/plans, GET /v1/billing/plans/{id}, POST .../{id}/activate, .../{id}/deactivate
 * - POST /v1/billing/subscriptions (idempotent by PayPal-Request-Id), GET .../{id}, POST .../{id}/revise, /suspend,
 *   /cancel, /activate, GET .../{id}/transactions?start_time&end_time
 * - GET /v1/payments/sale/{id}, POST /v1/payments/sale/{id}/refund (a billing payment's refund)
 * Buyer (no auth): GET /webapps/billing/subscriptions?ba_token=... (approve or cancel a subscription, or a revision),
 * whose forms POST to /webapps/billing/subscriptions/(approve|cancel).
 * Simulator (no auth, JSON or form): GET /simulator/subscriptions (the dashboard), POST
 * /simulator/subscriptions/{id}/bill {outcome: completed|failed} (the next cycle now), /suspend, /reactivate, /cancel
 * (PayPal's side: the buyer cancels in their PayPal account), POST /simulator/sales/{id}/refund and /reverse.
 *
 * Billing as PayPal runs it: approval activates the subscription and bills the first cycle at once (a sale COMPLETED:
 * PAYMENT.SALE.COMPLETED, then BILLING.SUBSCRIPTION.ACTIVATED). Each bill: completed makes a sale and moves
 * next_billing_time a month on; failed adds the price to outstanding_balance, counts failed_payments_count
 * (BILLING.SUBSCRIPTION.PAYMENT.FAILED) and, at the plan's payment_failure_threshold, suspends
 * (BILLING.SUBSCRIPTION.SUSPENDED). Reactivating after the buyer fixed their funding collects the outstanding balance
 * (a sale) and makes it ACTIVE again. A revision the buyer approved changes plan_id at once; the new plan's price is
 * billed from the next cycle. Cancelled subscriptions bill nothing more.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { escapeHtml, header, isJsonContentType, redirect, withQuery } from '../shared/http';
import type { Route } from '../shared/route-table';
import { apiError, httpUrl, issue, jsonObject, malformedJson, missing, notFound, sendPaypalJson as sendJson, type Findings } from './errors';
import { now, randomAlnum } from './ids';
import { fromMinor, money, toMinor } from './money';
import { formatMoney, renderErrorPage, renderResultPage, sendPage as sendHtml } from './pages';
import type { Call, Handler } from './routes';
import { SIM_BUYER, isRecord, type Json, type SimLink, type SimMoney } from './types';
import type { Webhooks } from './webhooks';

export interface SimProduct {
  id: string;
  name: string;
  description?: string;
  type: 'PHYSICAL' | 'DIGITAL' | 'SERVICE';
  category?: string;
  create_time: string;
  update_time: string;
}

export interface SimPlan {
  id: string;
  product_id: string;
  name: string;
  description?: string;
  status: 'CREATED' | 'INACTIVE' | 'ACTIVE';
  billing_cycles: Json[];
  payment_preferences: { auto_bill_outstanding: boolean; setup_fee_failure_action: string; payment_failure_threshold: number };
  /** The REGULAR cycle's price and interval (the simulator bills monthly plans). */
  price: SimMoney;
  interval: { interval_unit: string; interval_count: number };
  create_time: string;
  update_time: string;
}

export type SimSubscriptionStatus = 'APPROVAL_PENDING' | 'APPROVED' | 'ACTIVE' | 'SUSPENDED' | 'CANCELLED' | 'EXPIRED';

export interface SimSubscription {
  id: string;
  plan_id: string;
  status: SimSubscriptionStatus;
  status_update_time: string;
  status_change_note?: string;
  custom_id?: string;
  start_time: string;
  create_time: string;
  update_time: string;
  return_url: string;
  cancel_url: string;
  brand_name?: string;
  ba_token: string;
  cycles_completed: number;
  failed_payments_count: number;
  outstanding: string;
  next_billing_time?: string;
  last_payment?: { amount: SimMoney; time: string };
  last_failed_payment?: { amount: SimMoney; time: string; reason_code: string; next_payment_retry_time?: string };
  /** A revision waiting for the buyer: the plan it moves to, and its approval token. */
  revision?: { plan_id: string; ba_token: string; return_url?: string; cancel_url?: string };
  request_id?: string;
}

export interface SimSale {
  id: string;
  subscription_id: string;
  amount: SimMoney;
  fee: SimMoney;
  state: 'completed' | 'partially_refunded' | 'refunded' | 'reversed';
  refunded: string;
  create_time: string;
  update_time: string;
  custom?: string;
}

export interface SimSaleRefund {
  id: string;
  sale_id: string;
  amount: SimMoney;
  state: 'completed';
  create_time: string;
}

export interface SubscriptionsSnapshot {
  products: [string, SimProduct][];
  plans: [string, SimPlan][];
  subscriptions: [string, SimSubscription][];
  sales: [string, SimSale][];
  refunds: [string, SimSaleRefund][];
  requests: [string, string][];
}

/** PayPal's ppaas_date_time_v3 pattern (billing_subscriptions_v1.json, the start_time and end_time parameters). */
const PPAAS_DATE_TIME = /^[0-9]{4}-(0[1-9]|1[0-2])-(0[1-9]|[1-2][0-9]|3[0-1])[Tt]([0-1][0-9]|2[0-3]):[0-5][0-9]:([0-5][0-9]|60)([.][0-9]+)?([Zz]|[+-][0-9]{2}:[0-9]{2})$/;

const MONTH_UNITS = new Set(['DAY', 'WEEK', 'MONTH', 'YEAR']);

function addInterval(iso: string, unit: string, count: number): string {
  const d = new Date(iso);
  if (unit === 'DAY') d.setUTCDate(d.getUTCDate() + count);
  else if (unit === 'WEEK') d.setUTCDate(d.getUTCDate() + 7 * count);
  else if (unit === 'YEAR') d.setUTCFullYear(d.getUTCFullYear() + count);
  else d.setUTCMonth(d.getUTCMonth() + count);
  return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

function str(obj: Json, key: string, path: string, min: number, max: number, f: Findings, required = false): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) {
    if (required) f.bad.push(missing(path));
    return undefined;
  }
  if (typeof v !== 'string') {
    f.bad.push(issue(path, v, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format.'));
    return undefined;
  }
  if (v.length < min || v.length > max) {
    f.bad.push(issue(path, v, 'INVALID_STRING_LENGTH', `The value of a field is either too short or too long. Length must be between ${min} and ${max}.`));
    return undefined;
  }
  return v;
}

function oneOf<T extends string>(obj: Json, key: string, path: string, allowed: readonly T[], f: Findings, required = false): T | undefined {
  const v = str(obj, key, path, 1, 24, f, required);
  if (v !== undefined && !(allowed as readonly string[]).includes(v)) {
    f.bad.push(issue(path, v, 'INVALID_PARAMETER_VALUE', `The value of a field is invalid. Allowed values: ${allowed.join(', ')}.`));
    return undefined;
  }
  return v as T | undefined;
}

function url(obj: Json, key: string, path: string, f: Findings, required: boolean): string | undefined {
  const v = str(obj, key, path, 10, 4000, f, required);
  return v === undefined ? undefined : httpUrl(v, path, f);
}

function done(f: Findings): void {
  if (f.bad.length) throw apiError(400, 'INVALID_REQUEST', f.bad);
  if (f.unprocessable.length) throw apiError(422, 'UNPROCESSABLE_ENTITY', f.unprocessable);
}

const statusInvalid = (description: string) => apiError(422, 'UNPROCESSABLE_ENTITY', [{ issue: 'SUBSCRIPTION_STATUS_INVALID', description }]);

export function createSubscriptions(opts: { url: () => string; publicBaseUrl: () => string; webhooks: Webhooks; requireBearer: (req: IncomingMessage) => void }) {
  const { webhooks } = opts;
  const products = new Map<string, SimProduct>();
  const plans = new Map<string, SimPlan>();
  const subscriptions = new Map<string, SimSubscription>();
  const sales = new Map<string, SimSale>();
  const refunds = new Map<string, SimSaleRefund>();
  /** `${kind}\n${PayPal-Request-Id}` -> the id it made. */
  const requests = new Map<string, string>();

  // ---- representations -------------------------------------------------------------------------------------------

  const api = (p: string) => `${opts.url()}${p}`;
  const approvalHref = (token: string) => `${opts.publicBaseUrl()}/webapps/billing/subscriptions?ba_token=${encodeURIComponent(token)}`;

  function productView(p: SimProduct): Json {
    return { ...p, links: [{ href: api(`/v1/catalogs/products/${p.id}`), rel: 'self', method: 'GET' }, { href: api(`/v1/catalogs/products/${p.id}`), rel: 'edit', method: 'PATCH' }] };
  }

  function planView(p: SimPlan): Json {
    const { price: _price, interval: _interval, ...rest } = p;
    const self = api(`/v1/billing/plans/${p.id}`);
    return {
      ...rest,
      usage_type: 'LICENSED',
      quantity_supported: false,
      links: [
        { href: self, rel: 'self', method: 'GET' },
        { href: self, rel: 'edit', method: 'PATCH' },
        { href: `${self}/${p.status === 'ACTIVE' ? 'deactivate' : 'activate'}`, rel: p.status === 'ACTIVE' ? 'self' : 'self', method: 'POST' },
      ],
    };
  }

  function subscriptionView(s: SimSubscription): Json {
    const plan = plans.get(s.plan_id)!;
    const self = api(`/v1/billing/subscriptions/${s.id}`);
    const links: SimLink[] = [{ href: self, rel: 'self', method: 'GET' }];
    if (s.status === 'APPROVAL_PENDING') links.unshift({ href: approvalHref(s.ba_token), rel: 'approve', method: 'GET' });
    if (s.status === 'ACTIVE' || s.status === 'SUSPENDED') {
      links.push({ href: self, rel: 'edit', method: 'PATCH' }, { href: `${self}/cancel`, rel: 'cancel', method: 'POST' });
      links.push(s.status === 'ACTIVE' ? { href: `${self}/suspend`, rel: 'suspend', method: 'POST' } : { href: `${self}/activate`, rel: 'activate', method: 'POST' });
    }
    const cc = plan.price.currency_code;
    const active = s.status === 'ACTIVE' || s.status === 'SUSPENDED';
    return {
      id: s.id,
      plan_id: s.plan_id,
      status: s.status,
      status_update_time: s.status_update_time,
      ...(s.status_change_note ? { status_change_note: s.status_change_note } : {}),
      start_time: s.start_time,
      quantity: '1',
      ...(s.custom_id ? { custom_id: s.custom_id } : {}),
      plan_overridden: false,
      ...(s.status === 'APPROVAL_PENDING'
        ? {}
        : {
            subscriber: {
              name: SIM_BUYER.name,
              email_address: SIM_BUYER.email_address,
              payer_id: SIM_BUYER.payer_id,
            },
            billing_info: {
              outstanding_balance: { currency_code: cc, value: s.outstanding },
              cycle_executions: [
                { tenure_type: 'REGULAR', sequence: 1, cycles_completed: s.cycles_completed, cycles_remaining: 0, current_pricing_scheme_version: 1, total_cycles: 0 },
              ],
              ...(s.last_payment ? { last_payment: s.last_payment } : {}),
              ...(active && s.next_billing_time ? { next_billing_time: s.next_billing_time } : {}),
              failed_payments_count: s.failed_payments_count,
              ...(s.last_failed_payment ? { last_failed_payment: s.last_failed_payment } : {}),
            },
          }),
      create_time: s.create_time,
      update_time: s.update_time,
      links,
    };
  }

  /** A sale as PayPal's v1 payments API and the PAYMENT.SALE.* events show it. */
  function saleView(s: SimSale): Json {
    const self = api(`/v1/payments/sale/${s.id}`);
    return {
      id: s.id,
      state: s.state,
      amount: { total: s.amount.value, currency: s.amount.currency_code, details: { subtotal: s.amount.value } },
      payment_mode: 'INSTANT_TRANSFER',
      protection_eligibility: 'ELIGIBLE',
      protection_eligibility_type: 'ITEM_NOT_RECEIVED_ELIGIBLE,UNAUTHORIZED_PAYMENT_ELIGIBLE',
      transaction_fee: { value: s.fee.value, currency: s.fee.currency_code },
      billing_agreement_id: s.subscription_id,
      ...(s.custom ? { custom: s.custom } : {}),
      create_time: s.create_time,
      update_time: s.update_time,
      links: [
        { href: self, rel: 'self', method: 'GET' },
        { href: `${self}/refund`, rel: 'refund', method: 'POST' },
      ],
    };
  }

  function refundView(r: SimSaleRefund): Json {
    const sale = sales.get(r.sale_id)!;
    return {
      id: r.id,
      state: r.state,
      // PayPal's sale refund events carry the amount that went back as a negative total.
      amount: { total: `-${r.amount.value}`, currency: r.amount.currency_code },
      sale_id: r.sale_id,
      billing_agreement_id: sale.subscription_id,
      ...(sale.custom ? { custom: sale.custom } : {}),
      create_time: r.create_time,
      update_time: r.create_time,
      links: [
        { href: api(`/v1/payments/refund/${r.id}`), rel: 'self', method: 'GET' },
        { href: api(`/v1/payments/sale/${r.sale_id}`), rel: 'sale', method: 'GET' },
      ],
    };
  }

  const emitSubscription = (type: string, summary: string, s: SimSubscription) => webhooks.emit(type, 'subscription', summary, subscriptionView(s));

  // ---- transitions -------------------------------------------------------------------------------------------------

  function setStatus(s: SimSubscription, status: SimSubscriptionStatus, note?: string): void {
    const t = now();
    s.status = status;
    s.status_update_time = t;
    s.update_time = t;
    if (note) s.status_change_note = note;
  }

  /** A completed payment of `value` on the subscription: a sale and its PAYMENT.SALE.COMPLETED. */
  function makeSale(s: SimSubscription, value: SimMoney): SimSale {
    const t = now();
    const minor = toMinor(value.value, value.currency_code);
    const fee = (minor * 349n + 5_000n) / 10_000n + 49n;
    const sale: SimSale = {
      id: randomAlnum(17),
      subscription_id: s.id,
      amount: value,
      fee: { currency_code: value.currency_code, value: fromMinor(fee, value.currency_code) },
      state: 'completed',
      refunded: fromMinor(0n, value.currency_code),
      create_time: t,
      update_time: t,
      ...(s.custom_id ? { custom: s.custom_id } : {}),
    };
    sales.set(sale.id, sale);
    s.last_payment = { amount: value, time: t };
    webhooks.emit('PAYMENT.SALE.COMPLETED', 'sale', `Payment completed for ${formatMoney(value.value, value.currency_code)}`, saleView(sale));
    return sale;
  }

  /** Bills the next cycle now: `completed` takes the plan's price (and any balance left outstanding); `failed` does not. */
  function bill(s: SimSubscription, outcome: 'completed' | 'failed'): Json {
    if (s.status !== 'ACTIVE') throw statusInvalid(`Only an active subscription is billed; this one is ${s.status}.`);
    const plan = plans.get(s.plan_id)!;
    const cc = plan.price.currency_code;
    const due = toMinor(plan.price.value, cc) + toMinor(s.outstanding, cc);
    const t = now();
    if (outcome === 'completed') {
      const sale = makeSale(s, { currency_code: cc, value: fromMinor(due, cc) });
      s.outstanding = fromMinor(0n, cc);
      s.cycles_completed++;
      s.failed_payments_count = 0;
      delete s.last_failed_payment;
      s.next_billing_time = addInterval(s.next_billing_time ?? t, plan.interval.interval_unit, plan.interval.interval_count);
      s.update_time = t;
      return { subscription: subscriptionView(s), sale: saleView(sale) };
    }
    s.failed_payments_count++;
    s.outstanding = fromMinor(toMinor(s.outstanding, cc) + toMinor(plan.price.value, cc), cc);
    const suspend = s.failed_payments_count >= plan.payment_preferences.payment_failure_threshold;
    s.last_failed_payment = {
      amount: plan.price,
      time: t,
      reason_code: 'PAYMENT_DENIED',
      ...(suspend ? {} : { next_payment_retry_time: addInterval(t, 'DAY', 5) }),
    };
    s.update_time = t;
    emitSubscription('BILLING.SUBSCRIPTION.PAYMENT.FAILED', `Subscription payment failed for ${formatMoney(plan.price.value, cc)}`, s);
    if (suspend) {
      setStatus(s, 'SUSPENDED', 'Payment failure threshold reached');
      emitSubscription('BILLING.SUBSCRIPTION.SUSPENDED', 'A billing agreement was suspended.', s);
    }
    return { subscription: subscriptionView(s) };
  }

  function refundSale(sale: SimSale, value: SimMoney | undefined, kind: 'refund' | 'reversal'): SimSaleRefund {
    const cc = sale.amount.currency_code;
    const left = toMinor(sale.amount.value, cc) - toMinor(sale.refunded, cc);
    if (left <= 0n) throw apiError(400, 'TRANSACTION_REFUSED', undefined, 'The requested transaction has been refused: the sale is already refunded.');
    const minor = value ? toMinor(value.value, cc) : left;
    if (value && value.currency_code !== cc) throw apiError(400, 'CURRENCY_MISMATCH', undefined, 'The currency of the refund must be the currency of the sale.');
    if (minor > left) throw apiError(400, 'REFUND_EXCEEDED_TRANSACTION_AMOUNT', undefined, 'Refund amount exceeded transaction amount.');
    const t = now();
    const r: SimSaleRefund = { id: randomAlnum(17), sale_id: sale.id, amount: { currency_code: cc, value: fromMinor(minor, cc) }, state: 'completed', create_time: t };
    refunds.set(r.id, r);
    sale.refunded = fromMinor(toMinor(sale.refunded, cc) + minor, cc);
    sale.state = kind === 'reversal' ? 'reversed' : minor === left ? 'refunded' : 'partially_refunded';
    sale.update_time = t;
    const label = formatMoney(r.amount.value, cc);
    if (kind === 'refund') webhooks.emit('PAYMENT.SALE.REFUNDED', 'refund', `A ${label} sale payment was refunded`, refundView(r));
    else webhooks.emit('PAYMENT.SALE.REVERSED', 'refund', `A ${label} sale payment was reversed`, refundView(r));
    return r;
  }

  // ---- request bodies ----------------------------------------------------------------------------------------------

  function body(req: IncomingMessage, raw: Buffer, required: boolean): Json {
    const text = raw.toString('utf8');
    if (!text.trim()) {
      if (required) throw malformedJson();
      return {};
    }
    if (!isJsonContentType(req)) {
      throw apiError(415, 'UNSUPPORTED_MEDIA_TYPE', undefined, "The server does not support the request payload's media type. Send Content-Type: application/json.");
    }
    const b = jsonObject(text);
    return b;
  }

  function replayed(kind: string, req: IncomingMessage): string | undefined {
    const id = header(req, 'paypal-request-id');
    return id ? requests.get(`${kind}\n${id}`) : undefined;
  }
  function remember(kind: string, req: IncomingMessage, made: string): void {
    const id = header(req, 'paypal-request-id');
    if (id) requests.set(`${kind}\n${id}`, made);
  }

  function findSubscription(id: string): SimSubscription {
    const s = subscriptions.get(id);
    if (!s) throw notFound('subscription_id', id);
    return s;
  }

  // ---- the REST API ------------------------------------------------------------------------------------------------

  function createProduct(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    const earlier = replayed('product', req);
    if (earlier) return sendJson(res, 200, productView(products.get(earlier)!));
    const b = body(req, raw, true);
    const f: Findings = { bad: [], unprocessable: [] };
    const id = str(b, 'id', '/id', 6, 50, f);
    const name = str(b, 'name', '/name', 1, 127, f, true);
    const description = str(b, 'description', '/description', 1, 256, f);
    const type = oneOf(b, 'type', '/type', ['PHYSICAL', 'DIGITAL', 'SERVICE'] as const, f, true);
    const category = str(b, 'category', '/category', 4, 256, f);
    if (id && products.has(id)) f.unprocessable.push(issue('/id', id, 'DUPLICATE_RESOURCE_IDENTIFIER', 'Requested resource ID was already used.'));
    done(f);
    const t = now();
    const p: SimProduct = { id: id ?? `PROD-${randomAlnum(17)}`, name: name!, type: type!, ...(description ? { description } : {}), ...(category ? { category } : {}), create_time: t, update_time: t };
    products.set(p.id, p);
    remember('product', req, p.id);
    sendJson(res, 201, productView(p));
  }

  function createPlan(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    const earlier = replayed('plan', req);
    if (earlier) return sendJson(res, 200, planView(plans.get(earlier)!));
    const b = body(req, raw, true);
    const f: Findings = { bad: [], unprocessable: [] };
    const productId = str(b, 'product_id', '/product_id', 6, 50, f, true);
    const name = str(b, 'name', '/name', 1, 127, f, true);
    const description = str(b, 'description', '/description', 1, 127, f);
    const status = oneOf(b, 'status', '/status', ['CREATED', 'INACTIVE', 'ACTIVE'] as const, f) ?? 'ACTIVE';
    let price: SimMoney | undefined;
    let interval: SimPlan['interval'] | undefined;
    const cycles = b.billing_cycles;
    if (!Array.isArray(cycles) || cycles.length === 0) {
      f.bad.push(cycles === undefined || cycles === null ? missing('/billing_cycles') : issue('/billing_cycles', cycles, 'INVALID_PARAMETER_SYNTAX', 'billing_cycles must be a non-empty array.'));
    } else if (cycles.length > 12) {
      f.bad.push(issue('/billing_cycles', undefined, 'INVALID_ARRAY_MAX_ITEMS', 'The number of items in an array parameter is too large (at most 12).'));
    } else {
      cycles.forEach((c: unknown, i) => {
        const p = `/billing_cycles/${i}`;
        if (!isRecord(c)) return void f.bad.push(issue(p, c, 'INVALID_PARAMETER_SYNTAX', 'A billing cycle must be an object.'));
        const tenure = oneOf(c, 'tenure_type', `${p}/tenure_type`, ['REGULAR', 'TRIAL'] as const, f, true);
        if (c.sequence === undefined) f.bad.push(missing(`${p}/sequence`));
        else if (!Number.isInteger(c.sequence) || (c.sequence as number) < 1 || (c.sequence as number) > 99) f.bad.push(issue(`${p}/sequence`, c.sequence, 'INVALID_PARAMETER_VALUE', 'sequence is a whole number from 1 to 99.'));
        const freq = c.frequency;
        if (!isRecord(freq)) f.bad.push(freq === undefined ? missing(`${p}/frequency`) : issue(`${p}/frequency`, freq, 'INVALID_PARAMETER_SYNTAX', 'frequency must be an object.'));
        const unit = isRecord(freq) ? oneOf(freq, 'interval_unit', `${p}/frequency/interval_unit`, [...MONTH_UNITS] as string[], f, true) : undefined;
        const count = isRecord(freq) ? (freq.interval_count ?? 1) : 1;
        if (!Number.isInteger(count) || (count as number) < 1 || (count as number) > 365) f.bad.push(issue(`${p}/frequency/interval_count`, count, 'INVALID_PARAMETER_VALUE', 'interval_count is a whole number from 1 to 365.'));
        if (c.total_cycles !== undefined && (!Number.isInteger(c.total_cycles) || (c.total_cycles as number) < 0 || (c.total_cycles as number) > 999)) {
          f.bad.push(issue(`${p}/total_cycles`, c.total_cycles, 'INVALID_PARAMETER_VALUE', 'total_cycles is a whole number from 0 to 999.'));
        }
        const scheme = c.pricing_scheme;
        const fixed = isRecord(scheme) ? money(scheme.fixed_price, `${p}/pricing_scheme/fixed_price`, f, { positive: true }) : undefined;
        if (tenure === 'REGULAR') {
          if (!isRecord(scheme)) f.unprocessable.push(issue(`${p}/pricing_scheme`, undefined, 'INVALID_PRICING_SCHEME', 'A REGULAR billing cycle needs a pricing scheme with a fixed price.'));
          if (price) f.unprocessable.push(issue(p, undefined, 'MULTIPLE_REGULAR_BILLING_CYCLES', 'The simulator supports one REGULAR billing cycle per plan.'));
          price = fixed;
          if (unit) interval = { interval_unit: unit, interval_count: count as number };
        }
      });
      if (!f.bad.length && !price && !f.unprocessable.length) f.unprocessable.push(issue('/billing_cycles', undefined, 'MISSING_REGULAR_BILLING_CYCLE', 'A plan needs a REGULAR billing cycle.'));
    }
    const prefs = b.payment_preferences;
    if (prefs === undefined || prefs === null) f.bad.push(missing('/payment_preferences'));
    else if (!isRecord(prefs)) f.bad.push(issue('/payment_preferences', prefs, 'INVALID_PARAMETER_SYNTAX', 'payment_preferences must be an object.'));
    const p = isRecord(prefs) ? prefs : {};
    const threshold = p.payment_failure_threshold ?? 0;
    if (!Number.isInteger(threshold) || (threshold as number) < 0 || (threshold as number) > 999) {
      f.bad.push(issue('/payment_preferences/payment_failure_threshold', threshold, 'INVALID_PARAMETER_VALUE', 'payment_failure_threshold is a whole number from 0 to 999.'));
    }
    if (p.auto_bill_outstanding !== undefined && typeof p.auto_bill_outstanding !== 'boolean') {
      f.bad.push(issue('/payment_preferences/auto_bill_outstanding', p.auto_bill_outstanding, 'INVALID_PARAMETER_SYNTAX', 'auto_bill_outstanding is a boolean.'));
    }
    const failureAction = isRecord(prefs) ? oneOf(p, 'setup_fee_failure_action', '/payment_preferences/setup_fee_failure_action', ['CONTINUE', 'CANCEL'] as const, f) : undefined;
    if (productId && !f.bad.length && !products.has(productId)) f.unprocessable.push(issue('/product_id', productId, 'INVALID_PARAMETER_VALUE', 'The specified product does not exist.'));
    done(f);
    const t = now();
    const plan: SimPlan = {
      id: `P-${randomAlnum(24)}`,
      product_id: productId!,
      name: name!,
      ...(description ? { description } : {}),
      status,
      billing_cycles: (cycles as Json[]).map((c) => structuredClone(c)),
      payment_preferences: {
        auto_bill_outstanding: p.auto_bill_outstanding !== false,
        setup_fee_failure_action: failureAction ?? 'CANCEL',
        // PayPal's own default when none is given is 0: it then suspends at the first failure.
        payment_failure_threshold: threshold as number,
      },
      price: price!,
      interval: interval ?? { interval_unit: 'MONTH', interval_count: 1 },
      create_time: t,
      update_time: t,
    };
    plans.set(plan.id, plan);
    remember('plan', req, plan.id);
    sendJson(res, 201, planView(plan));
  }

  function planStatus(res: ServerResponse, id: string, to: 'ACTIVE' | 'INACTIVE'): void {
    const p = plans.get(id);
    if (!p) throw notFound('plan_id', id);
    if (to === 'ACTIVE' && p.status === 'ACTIVE') throw apiError(422, 'UNPROCESSABLE_ENTITY', [{ issue: 'PLAN_STATUS_INVALID', description: 'Invalid plan status for activate action; plan status should be either created or inactive.' }]);
    if (to === 'INACTIVE' && p.status !== 'ACTIVE') throw apiError(422, 'UNPROCESSABLE_ENTITY', [{ issue: 'PLAN_STATUS_INVALID', description: 'Invalid plan status for deactivate action; plan status should be active.' }]);
    p.status = to;
    p.update_time = now();
    res.writeHead(204, { 'cache-control': 'no-store' }).end();
  }

  function appContext(b: Json, path: string, f: Findings): { return_url?: string; cancel_url?: string; brand_name?: string } | undefined {
    const ctx = b.application_context;
    if (ctx === undefined || ctx === null) return undefined;
    if (!isRecord(ctx)) {
      f.bad.push(issue(path, ctx, 'INVALID_PARAMETER_SYNTAX', 'application_context must be an object.'));
      return undefined;
    }
    const brand = str(ctx, 'brand_name', `${path}/brand_name`, 1, 127, f);
    oneOf(ctx, 'shipping_preference', `${path}/shipping_preference`, ['GET_FROM_FILE', 'NO_SHIPPING', 'SET_PROVIDED_ADDRESS'] as const, f);
    oneOf(ctx, 'user_action', `${path}/user_action`, ['CONTINUE', 'SUBSCRIBE_NOW'] as const, f);
    str(ctx, 'locale', `${path}/locale`, 2, 10, f);
    const ret = url(ctx, 'return_url', `${path}/return_url`, f, true);
    const cancel = url(ctx, 'cancel_url', `${path}/cancel_url`, f, true);
    return { ...(ret ? { return_url: ret } : {}), ...(cancel ? { cancel_url: cancel } : {}), ...(brand ? { brand_name: brand } : {}) };
  }

  function createSubscription(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    const earlier = replayed('subscription', req);
    if (earlier) return sendJson(res, 200, subscriptionView(subscriptions.get(earlier)!));
    const b = body(req, raw, true);
    const f: Findings = { bad: [], unprocessable: [] };
    const planId = str(b, 'plan_id', '/plan_id', 3, 50, f, true);
    const customId = str(b, 'custom_id', '/custom_id', 1, 127, f);
    if (customId && !/^[\x20-\x7E]+$/.test(customId)) f.bad.push(issue('/custom_id', customId, 'INVALID_PARAMETER_SYNTAX', 'custom_id is printable ASCII.'));
    if (b.quantity !== undefined) f.unprocessable.push(issue('/quantity', b.quantity, 'SUBSCRIPTION_CANNOT_HAVE_QUANTITY', "Subscription can't have quantity as the plan does not support quantity."));
    if (b.start_time !== undefined && (typeof b.start_time !== 'string' || Number.isNaN(Date.parse(b.start_time)))) f.bad.push(issue('/start_time', b.start_time, 'INVALID_PARAMETER_SYNTAX', 'start_time is an RFC 3339 date-time.'));
    const ctx = appContext(b, '/application_context', f);
    // The simulator has no buyer to send elsewhere: the approval page needs somewhere to come back to.
    if (!ctx && !f.bad.length) f.bad.push(missing('/application_context'));
    const plan = planId ? plans.get(planId) : undefined;
    if (planId && !f.bad.length && !plan) throw notFound('plan_id', planId, 'body');
    if (plan && plan.status !== 'ACTIVE') f.unprocessable.push({ issue: 'PLAN_STATUS_INVALID', description: 'Invalid plan status for subscription creation; plan status should be active.' });
    done(f);
    const t = now();
    let id = `I-${randomAlnum(12)}`;
    while (subscriptions.has(id)) id = `I-${randomAlnum(12)}`;
    const s: SimSubscription = {
      id,
      plan_id: plan!.id,
      status: 'APPROVAL_PENDING',
      status_update_time: t,
      ...(customId ? { custom_id: customId } : {}),
      start_time: typeof b.start_time === 'string' ? b.start_time : t,
      create_time: t,
      update_time: t,
      return_url: ctx!.return_url!,
      cancel_url: ctx!.cancel_url!,
      ...(ctx!.brand_name ? { brand_name: ctx!.brand_name } : {}),
      ba_token: `BA-${randomAlnum(17)}`,
      cycles_completed: 0,
      failed_payments_count: 0,
      outstanding: fromMinor(0n, plan!.price.currency_code),
    };
    subscriptions.set(id, s);
    remember('subscription', req, id);
    emitSubscription('BILLING.SUBSCRIPTION.CREATED', 'Subscription created', s);
    sendJson(res, 201, subscriptionView(s));
  }

  function revise(req: IncomingMessage, res: ServerResponse, id: string, raw: Buffer): void {
    const s = findSubscription(id);
    const b = body(req, raw, true);
    const f: Findings = { bad: [], unprocessable: [] };
    const planId = str(b, 'plan_id', '/plan_id', 3, 50, f);
    if (b.quantity !== undefined) f.unprocessable.push(issue('/quantity', b.quantity, 'SUBSCRIPTION_CANNOT_HAVE_QUANTITY', "Subscription can't have quantity as the plan does not support quantity."));
    const ctx = appContext(b, '/application_context', f);
    if (!planId && !f.bad.length) f.bad.push(missing('/plan_id'));
    const plan = planId ? plans.get(planId) : undefined;
    if (planId && !f.bad.length && !plan) throw notFound('plan_id', planId, 'body');
    if (plan && plan.product_id !== plans.get(s.plan_id)!.product_id) f.unprocessable.push({ issue: 'PLAN_PRODUCT_NOT_COMPATIBLE', description: 'The old and the new plans should be for the same product.' });
    if (plan && plan.status !== 'ACTIVE') f.unprocessable.push({ issue: 'PLAN_STATUS_INVALID', description: 'Invalid plan status; plan status should be active.' });
    done(f);
    if (s.status !== 'ACTIVE' && s.status !== 'SUSPENDED') throw statusInvalid('Invalid subscription status for revise action; subscription status should be active or suspended.');
    s.revision = { plan_id: plan!.id, ba_token: `BA-${randomAlnum(17)}`, ...(ctx?.return_url ? { return_url: ctx.return_url } : {}), ...(ctx?.cancel_url ? { cancel_url: ctx.cancel_url } : {}) };
    s.update_time = now();
    sendJson(res, 200, {
      plan_id: plan!.id,
      plan_overridden: false,
      links: [
        { href: approvalHref(s.revision.ba_token), rel: 'approve', method: 'GET' },
        { href: api(`/v1/billing/subscriptions/${s.id}`), rel: 'self', method: 'GET' },
      ],
    });
  }

  function reasonOf(req: IncomingMessage, raw: Buffer, required: boolean): string | undefined {
    const b = body(req, raw, required);
    const f: Findings = { bad: [], unprocessable: [] };
    const reason = str(b, 'reason', '/reason', 1, 128, f, required);
    done(f);
    return reason;
  }

  function noContent(res: ServerResponse): void {
    res.writeHead(204, { 'cache-control': 'no-store' }).end();
  }

  function cancel(s: SimSubscription, note: string): void {
    if (s.status !== 'ACTIVE' && s.status !== 'SUSPENDED') throw statusInvalid('Invalid subscription status for cancel action; subscription status should be active or suspended.');
    setStatus(s, 'CANCELLED', note);
    delete s.revision;
    emitSubscription('BILLING.SUBSCRIPTION.CANCELLED', 'Subscription cancelled', s);
  }

  function suspend(s: SimSubscription, note: string): void {
    if (s.status !== 'ACTIVE') throw statusInvalid('Invalid subscription status for suspend action; subscription status should be active.');
    setStatus(s, 'SUSPENDED', note);
    emitSubscription('BILLING.SUBSCRIPTION.SUSPENDED', 'Subscription suspended', s);
  }

  /** From SUSPENDED to ACTIVE; after failed payments only once the outstanding balance is paid (`collect`). */
  function reactivate(s: SimSubscription, note: string, collect: boolean): void {
    if (s.status !== 'SUSPENDED') throw statusInvalid('Invalid subscription status for activate action; subscription status should be suspended.');
    const plan = plans.get(s.plan_id)!;
    const cc = plan.price.currency_code;
    const owed = toMinor(s.outstanding, cc);
    if (owed > 0n && !collect) {
      throw apiError(422, 'UNPROCESSABLE_ENTITY', [{ issue: 'SUBSCRIPTION_CANNOT_BE_ACTIVATED', description: 'Subscription cannot be activated after payment failure threshold has reached.' }]);
    }
    if (owed > 0n) {
      makeSale(s, { currency_code: cc, value: s.outstanding });
      s.outstanding = fromMinor(0n, cc);
      s.cycles_completed++;
      s.failed_payments_count = 0;
      delete s.last_failed_payment;
      s.next_billing_time = addInterval(now(), plan.interval.interval_unit, plan.interval.interval_count);
    }
    setStatus(s, 'ACTIVE', note);
    emitSubscription('BILLING.SUBSCRIPTION.ACTIVATED', 'Subscription activated', s);
  }

  /**
   * GET /v1/billing/subscriptions/{id}/transactions (operationId subscriptions.transactions): start_time and end_time
   * required, each a ppaas_date_time_v3 (20-64 characters, RFC 3339 with seconds); the list's `transaction` items as
   * published: status (capture_status: COMPLETED, DECLINED, PARTIALLY_REFUNDED, PENDING, REFUNDED; the enum has no
   * REVERSED, so a reversed sale lists as REFUNDED: its money went back), id, amount_with_breakdown (gross, fee, net),
   * payer_name, payer_email, time. No refund amount: a partial refund shows only as PARTIALLY_REFUNDED.
   */
  function transactions(res: ServerResponse, id: string, query: URLSearchParams): void {
    const s = findSubscription(id);
    const f: Findings = { bad: [], unprocessable: [] };
    const range: Record<string, number> = {};
    for (const k of ['start_time', 'end_time']) {
      const v = query.get(k);
      if (v === null) f.bad.push({ field: k, location: 'query', issue: 'MISSING_REQUIRED_PARAMETER', description: 'A required field is missing.' });
      else if (v.length < 20 || v.length > 64 || !PPAAS_DATE_TIME.test(v) || Number.isNaN(Date.parse(v))) {
        f.bad.push({ field: k, value: v, location: 'query', issue: 'INVALID_PARAMETER_SYNTAX', description: 'The value of a field does not conform to the expected format.' });
      } else range[k] = Date.parse(v);
    }
    if (!f.bad.length && range.end_time! < range.start_time!) {
      f.bad.push({ field: 'end_time', value: query.get('end_time')!, location: 'query', issue: 'INVALID_PARAMETER_VALUE', description: 'The value of a field is invalid.' });
    }
    done(f);
    const status = (x: SimSale) => (x.state === 'completed' ? 'COMPLETED' : x.state === 'partially_refunded' ? 'PARTIALLY_REFUNDED' : 'REFUNDED');
    const list = [...sales.values()]
      .filter((x) => x.subscription_id === s.id && Date.parse(x.create_time) >= range.start_time! && Date.parse(x.create_time) <= range.end_time!)
      .map((x) => {
        const cc = x.amount.currency_code;
        return {
          status: status(x),
          id: x.id,
          amount_with_breakdown: {
            gross_amount: x.amount,
            fee_amount: x.fee,
            net_amount: { currency_code: cc, value: fromMinor(toMinor(x.amount.value, cc) - toMinor(x.fee.value, cc), cc) },
          },
          payer_name: SIM_BUYER.name,
          payer_email: SIM_BUYER.email_address,
          time: x.create_time,
        };
      });
    sendJson(res, 200, { transactions: list, total_items: list.length, total_pages: 1, links: [{ href: api(`/v1/billing/subscriptions/${s.id}/transactions`), rel: 'self', method: 'GET' }] });
  }

  /** The routes this module serves, for the simulator's route table (routes.ts). */
  function routes(): Route<Handler>[] {
    const bearer = (c: Call) => opts.requireBearer(c.req);
    const api = (method: string, path: string, handle: Handler): Route<Handler> => ({
      method,
      path,
      handle: (c) => {
        bearer(c);
        handle(c);
      },
    });
    const simple = (action: 'revise' | 'suspend' | 'cancel' | 'activate'): Route<Handler> =>
      api('POST', `/v1/billing/subscriptions/{id}/${action}`, (c) => {
        const id = c.params.id!;
        if (action === 'revise') return revise(c.req, c.res, id, c.raw);
        const s = findSubscription(id);
        const reason = reasonOf(c.req, c.raw, action !== 'activate');
        if (action === 'cancel') cancel(s, reason!);
        else if (action === 'suspend') suspend(s, reason!);
        else reactivate(s, reason ?? 'Reactivated by the merchant', false);
        noContent(c.res);
      });
    return [
      api('POST', '/v1/catalogs/products', (c) => createProduct(c.req, c.res, c.raw)),
      api('GET', '/v1/catalogs/products', (c) => sendJson(c.res, 200, { products: [...products.values()].map(productView), links: [] })),
      api('GET', '/v1/catalogs/products/{id}', (c) => {
        const p = products.get(c.params.id!);
        if (!p) throw notFound('product_id', c.params.id!);
        sendJson(c.res, 200, productView(p));
      }),
      api('POST', '/v1/billing/plans', (c) => createPlan(c.req, c.res, c.raw)),
      api('GET', '/v1/billing/plans', (c) => {
        const product = c.query.get('product_id');
        const list = [...plans.values()].filter((p) => !product || p.product_id === product).map(planView);
        sendJson(c.res, 200, { plans: list, total_items: list.length, total_pages: 1, links: [] });
      }),
      api('GET', '/v1/billing/plans/{id}', (c) => {
        const p = plans.get(c.params.id!);
        if (!p) throw notFound('plan_id', c.params.id!);
        sendJson(c.res, 200, planView(p));
      }),
      api('POST', '/v1/billing/plans/{id}/activate', (c) => planStatus(c.res, c.params.id!, 'ACTIVE')),
      api('POST', '/v1/billing/plans/{id}/deactivate', (c) => planStatus(c.res, c.params.id!, 'INACTIVE')),
      api('POST', '/v1/billing/subscriptions', (c) => createSubscription(c.req, c.res, c.raw)),
      api('GET', '/v1/billing/subscriptions/{id}', (c) => sendJson(c.res, 200, subscriptionView(findSubscription(c.params.id!)))),
      simple('revise'),
      simple('suspend'),
      simple('cancel'),
      simple('activate'),
      api('GET', '/v1/billing/subscriptions/{id}/transactions', (c) => transactions(c.res, c.params.id!, c.query)),
      api('GET', '/v1/payments/sale/{id}', (c) => {
        const sale = sales.get(c.params.id!);
        if (!sale) throw notFound('sale_id', c.params.id!);
        sendJson(c.res, 200, saleView(sale));
      }),
      api('POST', '/v1/payments/sale/{id}/refund', (c) => refundSaleCall(c)),
      { method: 'GET', path: '/webapps/billing/subscriptions', handle: (c) => approvalPage(c.res, c.query.get('ba_token')) },
      { method: 'POST', path: '/webapps/billing/subscriptions/approve', handle: (c) => approvalAction(c.res, 'approve', new URLSearchParams(c.raw.toString('utf8')).get('ba_token')) },
      { method: 'POST', path: '/webapps/billing/subscriptions/cancel', handle: (c) => approvalAction(c.res, 'cancel', new URLSearchParams(c.raw.toString('utf8')).get('ba_token')) },
      { method: 'GET', path: '/simulator/subscriptions', handle: (c) => dashboard(c.res) },
      ...(['bill', 'suspend', 'reactivate', 'cancel'] as const).map(
        (action): Route<Handler> => ({ method: 'POST', path: `/simulator/subscriptions/{id}/${action}`, handle: (c) => simulatorAction(c.req, c.res, c.params.id!, action, c.raw) }),
      ),
      ...(['refund', 'reverse'] as const).map(
        (action): Route<Handler> => ({
          method: 'POST',
          path: `/simulator/sales/{id}/${action}`,
          handle: (c) => {
            const sale = sales.get(c.params.id!);
            if (!sale) throw notFound('sale_id', c.params.id!);
            const f = fields(c.req, c.raw);
            const value = f.amount?.trim() ? { currency_code: sale.amount.currency_code, value: f.amount.trim() } : undefined;
            answer(c.req, c.res, 201, refundView(refundSale(sale, value, action === 'reverse' ? 'reversal' : 'refund')));
          },
        }),
      ),
    ];
  }

  /** POST /v1/payments/sale/{id}/refund: all that is left, or `amount` {total, currency}; idempotent by PayPal-Request-Id. */
  function refundSaleCall(c: Call): void {
    const sale = sales.get(c.params.id!);
    if (!sale) throw notFound('sale_id', c.params.id!);
    const earlier = replayed(`refund:${sale.id}`, c.req);
    if (earlier) return sendJson(c.res, 201, refundView(refunds.get(earlier)!));
    const b = body(c.req, c.raw, false);
    const f: Findings = { bad: [], unprocessable: [] };
    let value: SimMoney | undefined;
    if (b.amount !== undefined) {
      const a = isRecord(b.amount) ? b.amount : {};
      value = money({ currency_code: a.currency, value: a.total }, '/amount', f, { positive: true });
    }
    done(f);
    const r = refundSale(sale, value, 'refund');
    remember(`refund:${sale.id}`, c.req, r.id);
    sendJson(c.res, 201, refundView(r));
  }

  // ---- the buyer's approval page -----------------------------------------------------------------------------------

  function byToken(token: string | null): { s: SimSubscription; revision: boolean } | undefined {
    if (!token) return undefined;
    for (const s of subscriptions.values()) {
      if (s.ba_token === token) return { s, revision: false };
      if (s.revision?.ba_token === token) return { s, revision: true };
    }
    return undefined;
  }

  function approvalPage(res: ServerResponse, token: string | null): void {
    const found = byToken(token);
    if (!found) return sendHtml(res, 404, renderErrorPage('Subscription not found', 'There is no PayPal subscription waiting for approval with this token.'));
    const { s, revision } = found;
    if (!revision && s.status !== 'APPROVAL_PENDING') return sendHtml(res, 410, renderErrorPage('Already decided', 'This subscription has already been approved or cancelled.'));
    const plan = plans.get(revision ? s.revision!.plan_id : s.plan_id)!;
    const price = formatMoney(plan.price.value, plan.price.currency_code);
    const t = escapeHtml(token!);
    sendHtml(
      res,
      200,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>PayPal (simulator): ${revision ? 'change plan' : 'subscribe'}</title></head>
<body><main><h1>${revision ? 'Change your plan' : 'Subscribe'}</h1>
<p>${escapeHtml(s.brand_name ?? 'Test Store')}: <strong>${escapeHtml(plan.name)}</strong>, ${escapeHtml(price)} every ${plan.interval.interval_count > 1 ? `${plan.interval.interval_count} ` : ''}${plan.interval.interval_unit.toLowerCase()}</p>
<p>Paying as ${escapeHtml(SIM_BUYER.email_address)}</p>
<form method="post" action="/webapps/billing/subscriptions/approve"><input type="hidden" name="ba_token" value="${t}"><button type="submit">${revision ? 'Agree and change' : 'Agree and subscribe'}</button></form>
<form method="post" action="/webapps/billing/subscriptions/cancel"><input type="hidden" name="ba_token" value="${t}"><button type="submit">Cancel and return</button></form>
</main></body></html>`,
    );
  }

  function approvalAction(res: ServerResponse, action: 'approve' | 'cancel', token: string | null): void {
    const found = byToken(token);
    if (!found) return sendHtml(res, 404, renderErrorPage('Subscription not found', 'There is no PayPal subscription waiting for approval with this token.'));
    const { s, revision } = found;
    const back = (target: string | undefined) =>
      target ? redirect(res, withQuery(target, { subscription_id: s.id, ba_token: token!, token: `EC-${randomAlnum(17)}` })) : sendHtml(res, 200, renderResultPage('Done', 'You can close this window.'));
    if (revision) {
      const r = s.revision!;
      delete s.revision;
      if (action === 'approve') {
        s.plan_id = r.plan_id;
        s.update_time = now();
        emitSubscription('BILLING.SUBSCRIPTION.UPDATED', 'Subscription updated', s);
      }
      return back(action === 'approve' ? (r.return_url ?? s.return_url) : (r.cancel_url ?? s.cancel_url));
    }
    if (s.status !== 'APPROVAL_PENDING') return sendHtml(res, 410, renderErrorPage('Already decided', 'This subscription has already been approved or cancelled.'));
    if (action === 'cancel') return back(s.cancel_url);
    const plan = plans.get(s.plan_id)!;
    // Activation bills the first cycle at once (the plan has no trial): the sale, then the status.
    const t = now();
    s.status = 'ACTIVE';
    s.status_update_time = t;
    s.update_time = t;
    s.next_billing_time = t;
    makeSale(s, plan.price);
    s.cycles_completed = 1;
    s.next_billing_time = addInterval(t, plan.interval.interval_unit, plan.interval.interval_count);
    emitSubscription('BILLING.SUBSCRIPTION.ACTIVATED', 'Subscription activated', s);
    back(s.return_url);
  }

  // ---- the simulator's own controls --------------------------------------------------------------------------------

  function fields(req: IncomingMessage, raw: Buffer): Record<string, string> {
    if (isJsonContentType(req)) {
      const b = body(req, raw, false);
      return Object.fromEntries(Object.entries(b).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    }
    return Object.fromEntries(new URLSearchParams(raw.toString('utf8')));
  }

  function answer(req: IncomingMessage, res: ServerResponse, status: number, b: unknown): void {
    if (isJsonContentType(req) || /application\/json/.test(header(req, 'accept') ?? '')) return sendJson(res, status, b);
    res.writeHead(303, { location: '/simulator/subscriptions', 'cache-control': 'no-store', 'content-length': 0 });
    res.end();
  }

  function simulatorAction(req: IncomingMessage, res: ServerResponse, id: string, action: string, raw: Buffer): void {
    const s = findSubscription(id);
    const f = fields(req, raw);
    if (action === 'bill') {
      const outcome = f.outcome ?? 'completed';
      if (outcome !== 'completed' && outcome !== 'failed') {
        throw apiError(400, 'INVALID_REQUEST', [{ field: '/outcome', location: 'body', issue: 'INVALID_PARAMETER_VALUE', description: 'outcome must be completed or failed.' }]);
      }
      return answer(req, res, 200, bill(s, outcome));
    }
    if (action === 'suspend') suspend(s, 'Suspended at PayPal');
    else if (action === 'reactivate') reactivate(s, 'The buyer updated their funding', true);
    else cancel(s, 'Cancelled by the buyer at PayPal');
    answer(req, res, 200, subscriptionView(s));
  }

  function dashboard(res: ServerResponse): void {
    const rows = [...subscriptions.values()].reverse().map((s) => {
      const plan = plans.get(s.plan_id)!;
      const id = escapeHtml(s.id);
      const button = (action: string, label: string, extra = '') =>
        `<form method="post" action="/simulator/subscriptions/${id}/${action}">${extra}<button type="submit">${label}</button></form>`;
      const own = [...sales.values()].filter((x) => x.subscription_id === s.id);
      return `<tr><td>${id}</td><td>${escapeHtml(plan.name)} (${escapeHtml(formatMoney(plan.price.value, plan.price.currency_code))})</td><td>${s.status}</td><td>${escapeHtml(s.next_billing_time ?? '')}</td><td>${s.failed_payments_count}</td>
<td>${button('bill', 'Bill: paid', '<input type="hidden" name="outcome" value="completed">')}${button('bill', 'Bill: failed', '<input type="hidden" name="outcome" value="failed">')}${button('suspend', 'Suspend')}${button('reactivate', 'Reactivate')}${button('cancel', 'Cancel')}</td>
<td>${own.map((x) => `${escapeHtml(x.id)} ${escapeHtml(x.amount.value)} ${x.state} <form method="post" action="/simulator/sales/${escapeHtml(x.id)}/refund"><button type="submit">Refund</button></form>`).join('<br>')}</td></tr>`;
    });
    sendHtml(
      res,
      200,
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>PayPal simulator: subscriptions</title></head><body><h1>Subscriptions</h1>
<p><a href="/simulator">Captures</a></p>
<table><thead><tr><th>Subscription</th><th>Plan</th><th>Status</th><th>Next billing</th><th>Failed payments</th><th>PayPal's side</th><th>Payments</th></tr></thead><tbody>${rows.join('')}</tbody></table></body></html>`,
    );
  }

  return {
    routes: routes(),
    /** Test hook: bill a subscription's next cycle now (as POST /simulator/subscriptions/{id}/bill). */
    bill: (id: string, outcome: 'completed' | 'failed') => bill(findSubscription(id), outcome),
    snapshot: (): SubscriptionsSnapshot => ({
      products: [...products],
      plans: [...plans],
      subscriptions: [...subscriptions],
      sales: [...sales],
      refunds: [...refunds],
      requests: [...requests],
    }),
    restore(snap: SubscriptionsSnapshot | undefined): void {
      if (!snap) return;
      for (const [k, v] of snap.products) products.set(k, v);
      for (const [k, v] of snap.plans) plans.set(k, v);
      for (const [k, v] of snap.subscriptions) subscriptions.set(k, v);
      for (const [k, v] of snap.sales) sales.set(k, v);
      for (const [k, v] of snap.refunds) refunds.set(k, v);
      for (const [k, v] of snap.requests) requests.set(k, v);
    },
  };
}
