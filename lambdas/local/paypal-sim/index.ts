/**
 * PayPal REST simulator (OAuth2 client credentials, Orders v2, webhooks), used by `npm start` and the tests in
 * place of https://api-m.paypal.com. node:http only.
 *
 * State is in memory and lives as long as the simulator: issued access tokens, orders, captures, the
 * PayPal-Request-Id idempotency records, the webhook events sent and the raw body of each delivery. Nothing is
 * persisted; a restart forgets every order (and webhooks sent before it can no longer be verified). Maps only grow,
 * which is fine for a development server and a test run.
 *
 * Endpoints (JSON bodies and error shapes as PayPal's; `Authorization: Bearer <token>` required except where noted):
 * - POST /v1/oauth2/token                       Basic clientId:clientSecret, grant_type=client_credentials (no Bearer)
 * - POST /v2/checkout/orders                     create (intent CAPTURE); idempotent by PayPal-Request-Id
 * - GET  /v2/checkout/orders/{id}
 * - POST /v2/checkout/orders/{id}/capture        idempotent by PayPal-Request-Id
 * - GET  /v2/payments/captures/{id}
 * - POST /v1/notifications/verify-webhook-signature
 * - GET  /v1/notifications/webhooks-events/{id}, POST /v1/notifications/webhooks-events/{id}/resend
 * - GET  /v1/notifications/certs/{id}            the signing key, PEM (no Bearer; see below)
 * - GET  /checkoutnow?token={id}                 buyer approval page (HTML, no auth), forms POST to
 *   /checkoutnow/approve and /checkoutnow/cancel
 *
 * Orders created with `payment_source.paypal` start PAYER_ACTION_REQUIRED with a `payer-action` link (PayPal's
 * current flow); orders created with only the legacy `application_context` start CREATED with an `approve` link, as
 * on PayPal. Approval -> APPROVED, capture -> COMPLETED. Cancelling on the approval page leaves the order as it was
 * (PayPal does not void it), so the simulator never produces VOIDED.
 *
 * Webhooks are signed for real, PayPal's scheme: an RSA key pair is generated at start, and
 * paypal-transmission-sig = base64(RSA-SHA256(`${transmissionId}|${transmissionTime}|${webhookId}|${crc32(body)}`)).
 * paypal-cert-url points at /v1/notifications/certs/..., which serves the public key as PEM (PayPal serves an
 * X.509 certificate; node:crypto verifies with either). verify-webhook-signature says SUCCESS only when the
 * webhook_id is the configured one, auth_algo and cert_url are what was sent, the transmission id is one the
 * simulator sent, the signature verifies with its public key over that transmission's id, time, webhook id and the
 * CRC-32 of the raw body it sent, and JSON.stringify(webhook_event) as received is exactly that raw body (the
 * receiver parsed the body it got and passes the parsed event back; any changed, added or removed field fails).
 */
import http from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import crypto from 'node:crypto';
import { crc32 } from './crc32';
import { PAGE_CSP, renderApprovalPage, renderErrorPage, renderResultPage } from './pages';

export { crc32 } from './crc32';

export interface PaypalSimOptions {
  /** Default 127.0.0.1. */
  host?: string;
  /** Default 0: a free port. */
  port?: number;
  /** OAuth client credentials the token endpoint accepts. */
  clientId: string;
  clientSecret: string;
  /** The webhook id verify-webhook-signature checks against (and the one webhooks are signed with). */
  webhookId: string;
  /** Where to POST webhook events (the app's /api/webhooks/paypal); may be set later with setWebhookUrl. */
  webhookUrl?: string;
  /** Base URL the browser uses for the approval page; default the simulator's own URL. */
  publicBaseUrl?: string;
  /** Used to deliver webhooks; default globalThis.fetch. */
  fetchImpl?: typeof fetch;
  /** Diagnostic lines (webhook delivery failures); default silent. */
  log?: (line: string) => void;
}

export interface PaypalSim {
  url: string;
  close(): Promise<void>;
  setWebhookUrl(url: string | undefined): void;
  /** A snapshot (deep copy) of every order, oldest first. */
  orders(): SimOrder[];
  /** Test hook: approve an order as the buyer would, without a browser (fires CHECKOUT.ORDER.APPROVED). */
  approve(orderId: string): void;
}

export type SimOrderStatus = 'CREATED' | 'PAYER_ACTION_REQUIRED' | 'APPROVED' | 'COMPLETED';

export interface SimMoney {
  currency_code: string;
  value: string;
}

export interface SimLink {
  href: string;
  rel: string;
  method: 'GET' | 'POST' | 'PATCH';
}

export interface SimPayer {
  name: { given_name: string; surname: string };
  email_address: string;
  payer_id: string;
  address: { country_code: string };
}

export interface SimCapture {
  id: string;
  status: 'COMPLETED';
  amount: SimMoney;
  final_capture: true;
  seller_protection: { status: 'ELIGIBLE'; dispute_categories: string[] };
  seller_receivable_breakdown: { gross_amount: SimMoney; paypal_fee: SimMoney; net_amount: SimMoney };
  custom_id?: string;
  invoice_id?: string;
  links: SimLink[];
  create_time: string;
  update_time: string;
}

export interface SimPurchaseUnit {
  reference_id: string;
  amount: SimMoney & { breakdown?: Record<string, SimMoney> };
  payee: { email_address: string; merchant_id: string };
  description?: string;
  custom_id?: string;
  invoice_id?: string;
  soft_descriptor?: string;
  items?: unknown[];
  payments?: { captures: SimCapture[] };
}

export interface SimExperienceContext {
  return_url?: string;
  cancel_url?: string;
  brand_name?: string;
  user_action?: string;
  shipping_preference?: string;
  landing_page?: string;
  locale?: string;
}

export interface SimOrder {
  id: string;
  intent: 'CAPTURE';
  status: SimOrderStatus;
  create_time: string;
  update_time?: string;
  purchase_units: SimPurchaseUnit[];
  /** Set on approval. */
  payer?: SimPayer;
  /** `{ paypal: {} }` when created with payment_source.paypal; filled with the buyer's account on approval. */
  payment_source?: { paypal: Record<string, unknown> };
  /** Not in PayPal's representation: what the merchant asked for (experience_context, or legacy application_context). */
  experience_context: SimExperienceContext;
  /** Not in PayPal's representation: the PayPal-Request-Id the order was created with. */
  request_id?: string;
}

/** The simulated buyer who approves every order. */
export const SIM_BUYER: SimPayer = {
  name: { given_name: 'Sandbox', surname: 'Buyer' },
  email_address: 'sb-buyer@personal.example.com',
  payer_id: 'SB7BUYERQXZ4N',
  address: { country_code: 'US' },
};

const SIM_PAYEE = { email_address: 'sb-merchant@business.example.com', merchant_id: 'SIMMERCH7Q2ZK' };
const APP_ID = 'APP-80W284485P519543T';
const TOKEN_TTL_SECONDS = 32400;
const SCOPE =
  'https://uri.paypal.com/services/invoicing https://uri.paypal.com/services/payments/payment/authcapture ' +
  'openid https://uri.paypal.com/services/payments/refund https://uri.paypal.com/services/applications/webhooks ' +
  'https://uri.paypal.com/services/payments/orders/client_credentials';
const SUPPORTED_CURRENCIES = new Set([
  'AUD', 'BRL', 'CAD', 'CNY', 'CZK', 'DKK', 'EUR', 'HKD', 'HUF', 'ILS', 'JPY', 'MYR', 'MXN', 'TWD', 'NZD', 'NOK',
  'PHP', 'PLN', 'GBP', 'SGD', 'SEK', 'CHF', 'THB', 'USD',
]);
const ZERO_DECIMAL_CURRENCIES = new Set(['HUF', 'JPY', 'TWD']);
const USER_ACTIONS = new Set(['CONTINUE', 'PAY_NOW']);
const SHIPPING_PREFERENCES = new Set(['GET_FROM_FILE', 'NO_SHIPPING', 'SET_PROVIDED_ADDRESS']);
const LANDING_PAGES = new Set(['LOGIN', 'GUEST_CHECKOUT', 'NO_PREFERENCE', 'BILLING']);
const BREAKDOWN_ADD = ['item_total', 'shipping', 'handling', 'tax_total', 'insurance'] as const;
const BREAKDOWN_SUB = ['shipping_discount', 'discount'] as const;
const WEBHOOK_RETRY_DELAYS_MS = [250, 1000];
const WEBHOOK_TIMEOUT_MS = 10_000;
const MAX_BODY = 1_000_000;

const MSG = {
  INVALID_REQUEST: 'Request is not well-formed, syntactically incorrect, or violates schema.',
  UNPROCESSABLE_ENTITY: 'The requested action could not be performed, semantically incorrect, or failed business validation.',
  RESOURCE_NOT_FOUND: 'The specified resource does not exist.',
  AUTHENTICATION_FAILURE: 'Authentication failed due to invalid authentication credentials or a missing Authorization header.',
} as const;

export interface PaypalIssue {
  field?: string;
  value?: string;
  location?: 'body' | 'path' | 'query' | 'header';
  issue: string;
  description: string;
}

export interface PaypalErrorBody {
  name: string;
  message: string;
  debug_id: string;
  details?: PaypalIssue[];
  links: SimLink[];
}

interface WebhookEvent {
  id: string;
  event_version: string;
  create_time: string;
  resource_type: string;
  resource_version: string;
  event_type: string;
  summary: string;
  resource: unknown;
  links: SimLink[];
}

interface Delivery {
  raw: string;
  eventId: string;
  transmissionTime: string;
}

type Json = Record<string, unknown>;

const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');
const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
function randomAlnum(n: number): string {
  const bytes = crypto.randomBytes(n);
  let s = '';
  for (let i = 0; i < n; i++) s += ALNUM[(bytes[i] ?? 0) % ALNUM.length];
  return s;
}
const debugId = () => crypto.randomBytes(7).toString('hex').slice(0, 13);

/** Minor units of a validated amount string (e.g. "6.99" USD -> 699n). */
function toMinor(value: string, currency: string): bigint {
  const exp = ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : 2;
  const neg = value.startsWith('-');
  const [int = '0', frac = ''] = (neg ? value.slice(1) : value).split('.');
  const minor = BigInt(int || '0') * 10n ** BigInt(exp) + BigInt(frac.padEnd(exp, '0').slice(0, exp) || '0');
  return neg ? -minor : minor;
}
function fromMinor(minor: bigint, currency: string): string {
  const exp = ZERO_DECIMAL_CURRENCIES.has(currency) ? 0 : 2;
  if (exp === 0) return minor.toString();
  const s = (minor < 0n ? -minor : minor).toString().padStart(3, '0');
  return `${minor < 0n ? '-' : ''}${s.slice(0, -2)}.${s.slice(-2)}`;
}

function errorLink(anchor: string): SimLink {
  return { href: `https://developer.paypal.com/docs/api/orders/v2/#error-${anchor}`, rel: 'information_link', method: 'GET' };
}

class PaypalError extends Error {
  constructor(
    readonly status: number,
    readonly body: PaypalErrorBody,
  ) {
    super(body.message);
  }
}

function apiError(status: number, name: keyof typeof MSG | string, details?: PaypalIssue[], message?: string): PaypalError {
  const msg = message ?? (MSG as Record<string, string>)[name] ?? name;
  const body: PaypalErrorBody = {
    name,
    message: msg,
    debug_id: debugId(),
    ...(details && details.length ? { details } : {}),
    links:
      details && details[0]
        ? [errorLink(details[0].issue)]
        : [{ href: 'https://developer.paypal.com/docs/api/overview/#error', rel: 'information_link', method: 'GET' }],
  };
  return new PaypalError(status, body);
}

const notFound = (field: string, value: string, location: 'path' | 'body' = 'path') =>
  apiError(404, 'RESOURCE_NOT_FOUND', [
    { field, value, location, issue: 'INVALID_RESOURCE_ID', description: 'Specified resource ID does not exist. Please check the resource ID and try again.' },
  ]);

/** Validation findings: `bad` are schema problems (400 INVALID_REQUEST), `unprocessable` business ones (422). */
interface Findings {
  bad: PaypalIssue[];
  unprocessable: PaypalIssue[];
}

const issue = (field: string, value: unknown, code: string, description: string): PaypalIssue => ({
  field,
  ...(value === undefined ? {} : { value: typeof value === 'string' ? value : JSON.stringify(value) }),
  location: 'body',
  issue: code,
  description,
});
const missing = (field: string) => issue(field, undefined, 'MISSING_REQUIRED_PARAMETER', 'A required field / parameter is missing.');

function optString(obj: Json, key: string, path: string, max: number, f: Findings): string | undefined {
  const v = obj[key];
  if (v === undefined || v === null) return undefined;
  if (typeof v !== 'string') {
    f.bad.push(issue(path, v, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format.'));
    return undefined;
  }
  if (v.length < 1 || v.length > max) {
    f.bad.push(issue(path, v, 'INVALID_STRING_LENGTH', `The value of a field is either too short or too long. Length must be between 1 and ${max}.`));
    return undefined;
  }
  return v;
}

function optEnum(obj: Json, key: string, path: string, allowed: Set<string>, f: Findings): string | undefined {
  const v = optString(obj, key, path, 64, f);
  if (v !== undefined && !allowed.has(v)) {
    f.bad.push(issue(path, v, 'INVALID_PARAMETER_VALUE', `The value of a field is invalid. Allowed values: ${[...allowed].join(', ')}.`));
    return undefined;
  }
  return v;
}

function optUrl(obj: Json, key: string, path: string, f: Findings): string | undefined {
  const v = optString(obj, key, path, 4000, f);
  if (v === undefined) return undefined;
  try {
    const u = new URL(v);
    if (u.protocol === 'http:' || u.protocol === 'https:') return v;
  } catch {
    // fall through
  }
  f.bad.push(issue(path, v, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format (an absolute http(s) URL).'));
  return undefined;
}

/** A money object: currency_code 3 upper-case letters PayPal supports, value a decimal string > 0 with the currency's precision. */
function money(v: unknown, path: string, f: Findings, opts: { positive: boolean }): SimMoney | undefined {
  if (v === undefined || v === null) {
    f.bad.push(missing(path));
    return undefined;
  }
  if (!isRecord(v)) {
    f.bad.push(issue(path, v, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format.'));
    return undefined;
  }
  let ok = true;
  const cc = v.currency_code;
  if (cc === undefined || cc === null) {
    f.bad.push(missing(`${path}/currency_code`));
    ok = false;
  } else if (typeof cc !== 'string' || !/^[A-Z]{3}$/.test(cc)) {
    f.bad.push(issue(`${path}/currency_code`, cc, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format (ISO 4217, three upper-case letters).'));
    ok = false;
  } else if (!SUPPORTED_CURRENCIES.has(cc)) {
    f.unprocessable.push(issue(`${path}/currency_code`, cc, 'CURRENCY_NOT_SUPPORTED', 'Currency code is not currently supported. Please refer https://developer.paypal.com/docs/api/reference/currency-codes/ for list of supported currency codes.'));
    ok = false;
  }
  const value = v.value;
  if (value === undefined || value === null) {
    f.bad.push(missing(`${path}/value`));
    return undefined;
  }
  if (typeof value !== 'string' || value.length > 32 || !/^-?\d+(\.\d+)?$/.test(value)) {
    f.bad.push(issue(`${path}/value`, value, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format (a decimal string such as "6.99").'));
    return undefined;
  }
  if (!ok || typeof cc !== 'string') return undefined;
  const decimals = value.split('.')[1]?.length ?? 0;
  if (decimals > (ZERO_DECIMAL_CURRENCIES.has(cc) ? 0 : 2)) {
    f.unprocessable.push(issue(`${path}/value`, value, 'DECIMAL_PRECISION', 'If the currency supports decimals, only two decimal place precision is supported.'));
    return undefined;
  }
  const minor = toMinor(value, cc);
  if (opts.positive ? minor <= 0n : minor < 0n) {
    f.unprocessable.push(issue(`${path}/value`, value, 'CANNOT_BE_ZERO_OR_NEGATIVE', 'Must be greater than zero. If the currency supports decimals, only two decimal place precision is supported.'));
    return undefined;
  }
  return { currency_code: cc, value };
}

interface CreateInput {
  units: Omit<SimPurchaseUnit, 'payee' | 'payments'>[];
  experience: SimExperienceContext;
  hasPaypalSource: boolean;
}

function validateCreate(body: unknown): CreateInput | PaypalError {
  if (!isRecord(body)) {
    return apiError(400, 'INVALID_REQUEST', [
      { field: '/', location: 'body', issue: 'MALFORMED_REQUEST_JSON', description: 'The request JSON is not well formed.' },
    ]);
  }
  const f: Findings = { bad: [], unprocessable: [] };
  if (body.intent === undefined || body.intent === null) f.bad.push(missing('/intent'));
  else if (body.intent !== 'CAPTURE') {
    f.bad.push(issue('/intent', body.intent, 'INVALID_PARAMETER_VALUE', 'The value of a field is invalid. The simulator supports intent CAPTURE only.'));
  }

  const units: CreateInput['units'] = [];
  const pus = body.purchase_units;
  if (!Array.isArray(pus) || pus.length === 0) {
    f.bad.push(pus === undefined || pus === null ? missing('/purchase_units') : issue('/purchase_units', pus, 'INVALID_PARAMETER_SYNTAX', 'purchase_units must be a non-empty array.'));
  } else if (pus.length > 10) {
    f.bad.push(issue('/purchase_units', undefined, 'INVALID_ARRAY_MAX_ITEMS', 'The number of items in an array parameter is too large (at most 10).'));
  } else {
    const refs = new Set<string>();
    pus.forEach((pu: unknown, i) => {
      const p = `/purchase_units/${i}`;
      if (!isRecord(pu)) {
        f.bad.push(issue(p, pu, 'INVALID_PARAMETER_SYNTAX', 'A purchase unit must be an object.'));
        return;
      }
      const reference_id = optString(pu, 'reference_id', `${p}/reference_id`, 256, f);
      if (pus.length > 1) {
        if (reference_id === undefined) f.unprocessable.push(issue(`${p}/reference_id`, undefined, 'REFERENCE_ID_REQUIRED', "'reference_id' is required for each 'purchase_unit' if multiple purchase_units are provided."));
        else if (refs.has(reference_id)) f.unprocessable.push(issue(`${p}/reference_id`, reference_id, 'DUPLICATE_REFERENCE_ID', "'reference_id' must be unique if multiple 'purchase_unit' are provided."));
      }
      if (reference_id !== undefined) refs.add(reference_id);
      const description = optString(pu, 'description', `${p}/description`, 127, f);
      const custom_id = optString(pu, 'custom_id', `${p}/custom_id`, 127, f);
      const invoice_id = optString(pu, 'invoice_id', `${p}/invoice_id`, 127, f);
      const soft_descriptor = optString(pu, 'soft_descriptor', `${p}/soft_descriptor`, 22, f);
      const amount = money(pu.amount, `${p}/amount`, f, { positive: true });
      let breakdown: Record<string, SimMoney> | undefined;
      if (amount && isRecord(pu.amount) && pu.amount.breakdown !== undefined) {
        breakdown = validateBreakdown(pu.amount.breakdown, amount, `${p}/amount/breakdown`, f);
      }
      let items: unknown[] | undefined;
      if (pu.items !== undefined) items = validateItems(pu.items, amount, breakdown, p, f);
      if (amount) {
        units.push({
          reference_id: reference_id ?? 'default',
          amount: breakdown ? { ...amount, breakdown } : amount,
          ...(description !== undefined ? { description } : {}),
          ...(custom_id !== undefined ? { custom_id } : {}),
          ...(invoice_id !== undefined ? { invoice_id } : {}),
          ...(soft_descriptor !== undefined ? { soft_descriptor } : {}),
          ...(items ? { items } : {}),
        });
      }
    });
    const currencies = new Set(units.map((u) => u.amount.currency_code));
    if (currencies.size > 1) {
      f.unprocessable.push(issue('/purchase_units', undefined, 'MULTI_CURRENCY_ORDER', 'Multiple differing values of currency_code are not supported. Entire Order request must have the same currency_code.'));
    }
  }

  const experience: SimExperienceContext = {};
  const readContext = (ctx: unknown, p: string) => {
    if (ctx === undefined || ctx === null) return;
    if (!isRecord(ctx)) {
      f.bad.push(issue(p, ctx, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format.'));
      return;
    }
    const values: SimExperienceContext = {
      return_url: optUrl(ctx, 'return_url', `${p}/return_url`, f),
      cancel_url: optUrl(ctx, 'cancel_url', `${p}/cancel_url`, f),
      brand_name: optString(ctx, 'brand_name', `${p}/brand_name`, 127, f),
      user_action: optEnum(ctx, 'user_action', `${p}/user_action`, USER_ACTIONS, f),
      shipping_preference: optEnum(ctx, 'shipping_preference', `${p}/shipping_preference`, SHIPPING_PREFERENCES, f),
      landing_page: optEnum(ctx, 'landing_page', `${p}/landing_page`, LANDING_PAGES, f),
      locale: optString(ctx, 'locale', `${p}/locale`, 10, f),
    };
    for (const [k, v] of Object.entries(values)) if (v !== undefined) (experience as Record<string, string>)[k] = v;
  };
  // Legacy first, so payment_source.paypal.experience_context wins where both are given.
  readContext(body.application_context, '/application_context');
  let hasPaypalSource = false;
  if (body.payment_source !== undefined) {
    const ps = body.payment_source;
    if (!isRecord(ps)) f.bad.push(issue('/payment_source', ps, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format.'));
    else {
      const others = Object.keys(ps).filter((k) => k !== 'paypal');
      if (others.length) f.unprocessable.push(issue(`/payment_source/${others[0]}`, undefined, 'PAYMENT_SOURCE_NOT_SUPPORTED', 'The simulator supports payment_source.paypal only.'));
      if (isRecord(ps.paypal)) {
        hasPaypalSource = true;
        readContext(ps.paypal.experience_context, '/payment_source/paypal/experience_context');
      } else if (ps.paypal !== undefined) {
        f.bad.push(issue('/payment_source/paypal', ps.paypal, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format.'));
      }
    }
  }

  if (f.bad.length) return apiError(400, 'INVALID_REQUEST', f.bad);
  if (f.unprocessable.length) return apiError(422, 'UNPROCESSABLE_ENTITY', f.unprocessable);
  return { units, experience, hasPaypalSource };
}

function validateBreakdown(v: unknown, amount: SimMoney, p: string, f: Findings): Record<string, SimMoney> | undefined {
  if (!isRecord(v)) {
    f.bad.push(issue(p, v, 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format.'));
    return undefined;
  }
  const out: Record<string, SimMoney> = {};
  let sum = 0n;
  let complete = true;
  for (const key of [...BREAKDOWN_ADD, ...BREAKDOWN_SUB]) {
    if (v[key] === undefined) continue;
    const m = money(v[key], `${p}/${key}`, f, { positive: false });
    if (!m) {
      complete = false;
      continue;
    }
    if (m.currency_code !== amount.currency_code) {
      f.unprocessable.push(issue(`${p}/${key}/currency_code`, m.currency_code, 'CURRENCY_MISMATCH', 'Should have the same currency code as the amount.'));
      complete = false;
      continue;
    }
    out[key] = m;
    const minor = toMinor(m.value, m.currency_code);
    sum += (BREAKDOWN_SUB as readonly string[]).includes(key) ? -minor : minor;
  }
  if (complete && sum !== toMinor(amount.value, amount.currency_code)) {
    f.unprocessable.push(issue(p.replace(/\/breakdown$/, '/value'), amount.value, 'AMOUNT_MISMATCH', 'Should equal item_total + tax_total + shipping + handling + insurance - shipping_discount - discount.'));
  }
  return out;
}

function validateItems(v: unknown, amount: SimMoney | undefined, breakdown: Record<string, SimMoney> | undefined, p: string, f: Findings): unknown[] | undefined {
  if (!Array.isArray(v)) {
    f.bad.push(issue(`${p}/items`, v, 'INVALID_PARAMETER_SYNTAX', 'items must be an array.'));
    return undefined;
  }
  let total = 0n;
  let complete = true;
  v.forEach((item: unknown, i) => {
    const ip = `${p}/items/${i}`;
    if (!isRecord(item)) {
      f.bad.push(issue(ip, item, 'INVALID_PARAMETER_SYNTAX', 'An item must be an object.'));
      complete = false;
      return;
    }
    if (item.name === undefined) f.bad.push(missing(`${ip}/name`));
    else optString(item, 'name', `${ip}/name`, 127, f);
    const q = item.quantity;
    if (q === undefined) f.bad.push(missing(`${ip}/quantity`));
    else if (typeof q !== 'string' || !/^[1-9]\d{0,9}$/.test(q)) f.bad.push(issue(`${ip}/quantity`, q, 'INVALID_PARAMETER_SYNTAX', 'quantity must be a positive integer string.'));
    const unit = money(item.unit_amount, `${ip}/unit_amount`, f, { positive: false });
    if (unit && typeof q === 'string' && /^[1-9]\d{0,9}$/.test(q)) total += toMinor(unit.value, unit.currency_code) * BigInt(q);
    else complete = false;
  });
  const itemTotal = breakdown?.item_total;
  if (v.length && amount && !itemTotal) {
    f.unprocessable.push(issue(`${p}/amount/breakdown/item_total`, undefined, 'ITEM_TOTAL_REQUIRED', 'If item details are specified (items.unit_amount and items.quantity) corresponding amount.breakdown.item_total is required.'));
  } else if (itemTotal && complete && total !== toMinor(itemTotal.value, itemTotal.currency_code)) {
    f.unprocessable.push(issue(`${p}/amount/breakdown/item_total`, itemTotal.value, 'ITEM_TOTAL_MISMATCH', 'Should equal sum of (unit_amount * quantity) across all items for a given purchase_unit.'));
  }
  return v;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

function readBody(req: IncomingMessage): Promise<{ body: Buffer; tooLarge: boolean }> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > MAX_BODY) tooLarge = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve({ body: Buffer.concat(chunks), tooLarge }));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown, debug = debugId()): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'paypal-debug-id': isRecord(body) && typeof body.debug_id === 'string' ? body.debug_id : debug,
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(text),
  });
  res.end(text);
}

function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(html),
  });
  res.end(html);
}

function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, 'cache-control': 'no-store', 'content-length': 0 });
  res.end();
}

function withQuery(base: string, params: Record<string, string>): string {
  const u = new URL(base);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}

function isJsonContentType(req: IncomingMessage): boolean {
  return /^application\/(.+\+)?json\b/i.test(header(req, 'content-type') ?? '');
}

export function startPaypalSimulator(opts: PaypalSimOptions): Promise<PaypalSim> {
  const host = opts.host ?? '127.0.0.1';
  const fetchImpl = opts.fetchImpl ?? globalThis.fetch.bind(globalThis);
  const log = opts.log ?? (() => {});
  let webhookUrl = opts.webhookUrl;
  let url = '';
  let publicBaseUrl = '';
  let closed = false;

  const { publicKey, privateKey } = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 });
  const publicKeyPem = publicKey.export({ type: 'spki', format: 'pem' }).toString();
  const certId = `CERT-360caa42-fca2a594-${randomAlnum(8).toLowerCase()}`;
  const certUrl = () => `${url}/v1/notifications/certs/${certId}`;

  const tokens = new Map<string, number>(); // access token -> expiry (ms)
  const orders = new Map<string, SimOrder>();
  const createRequests = new Map<string, string>(); // PayPal-Request-Id -> order id
  const captureResponses = new Map<string, string>(); // `${orderId}\n${PayPal-Request-Id}` -> response body
  const captures = new Map<string, { orderId: string; unit: number }>();
  const events = new Map<string, { event: WebhookEvent; raw: string }>();
  const deliveries = new Map<string, Delivery>(); // transmission id -> what was sent
  const timers = new Set<NodeJS.Timeout>();
  const inflight = new Set<AbortController>();

  // ---- representations -------------------------------------------------------------------------------------------

  const orderHref = (id: string) => `${url}/v2/checkout/orders/${id}`;
  const checkoutHref = (id: string) => `${publicBaseUrl}/checkoutnow?token=${encodeURIComponent(id)}`;

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
      { href: `${url}/v2/payments/captures/${c.id}`, rel: 'self', method: 'GET' },
      { href: `${url}/v2/payments/captures/${c.id}/refund`, rel: 'refund', method: 'POST' },
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

  // ---- webhooks --------------------------------------------------------------------------------------------------

  function makeEvent(type: string, resourceType: string, summary: string, resource: unknown): WebhookEvent {
    const id = `WH-${randomAlnum(17)}-${randomAlnum(17)}`;
    const href = `${url}/v1/notifications/webhooks-events/${id}`;
    const event: WebhookEvent = {
      id,
      event_version: '1.0',
      create_time: new Date().toISOString(),
      resource_type: resourceType,
      resource_version: '2.0',
      event_type: type,
      summary,
      resource,
      links: [
        { href, rel: 'self', method: 'GET' },
        { href: `${href}/resend`, rel: 'resend', method: 'POST' },
      ],
    };
    events.set(id, { event, raw: JSON.stringify(event) });
    return event;
  }

  function sign(transmissionId: string, transmissionTime: string, raw: string): string {
    const message = `${transmissionId}|${transmissionTime}|${opts.webhookId}|${crc32(raw)}`;
    return crypto.sign('sha256', Buffer.from(message, 'utf8'), privateKey).toString('base64');
  }

  /** Fire-and-forget delivery with retries; never throws. The delivery is recorded before it is sent. */
  function deliver(eventId: string): void {
    const stored = events.get(eventId);
    const target = webhookUrl;
    if (!stored || !target || closed) return;
    const { raw, event } = stored;
    const transmissionId = crypto.randomUUID();
    const transmissionTime = new Date().toISOString();
    deliveries.set(transmissionId, { raw, eventId, transmissionTime });
    const headers: Record<string, string> = {
      'content-type': 'application/json',
      'user-agent': 'PayPal/AUHD-214.0-58904720',
      'paypal-transmission-id': transmissionId,
      'paypal-transmission-time': transmissionTime,
      'paypal-transmission-sig': sign(transmissionId, transmissionTime, raw),
      'paypal-cert-url': certUrl(),
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-auth-version': 'v2',
    };
    const attempt = async (n: number): Promise<void> => {
      if (closed) return;
      const ac = new AbortController();
      inflight.add(ac);
      const timeout = setTimeout(() => ac.abort(), WEBHOOK_TIMEOUT_MS);
      timeout.unref();
      let failure: string | undefined;
      try {
        const r = await fetchImpl(target, { method: 'POST', headers, body: raw, signal: ac.signal });
        await r.arrayBuffer().catch(() => undefined);
        if (!r.ok) failure = `HTTP ${r.status}`;
      } catch (err) {
        failure = err instanceof Error ? err.message : String(err);
      } finally {
        clearTimeout(timeout);
        inflight.delete(ac);
      }
      if (failure === undefined || closed) return;
      const delay = WEBHOOK_RETRY_DELAYS_MS[n];
      if (delay === undefined) {
        log(`paypal-sim: webhook ${event.event_type} ${event.id} to ${target} failed after ${n + 1} attempts: ${failure}`);
        return;
      }
      log(`paypal-sim: webhook ${event.event_type} ${event.id} to ${target} failed (${failure}); retrying in ${delay} ms`);
      const t = setTimeout(() => {
        timers.delete(t);
        void attempt(n + 1);
      }, delay);
      t.unref();
      timers.add(t);
    };
    void attempt(0).catch(() => undefined);
  }

  // ---- state transitions (synchronous: no await between check and set) ------------------------------------------

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
    const ev = makeEvent('CHECKOUT.ORDER.APPROVED', 'checkout-order', 'An order has been approved by buyer', fullOrder(o));
    deliver(ev.id);
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

  // ---- HTTP ------------------------------------------------------------------------------------------------------

  function requireBearer(req: IncomingMessage): void {
    const m = /^Bearer\s+(\S+)$/i.exec(header(req, 'authorization') ?? '');
    const expiry = m?.[1] ? tokens.get(m[1]) : undefined;
    if (expiry === undefined || expiry < Date.now()) throw apiError(401, 'AUTHENTICATION_FAILURE');
  }

  function parseJson(raw: Buffer): unknown {
    try {
      return JSON.parse(raw.toString('utf8')) as unknown;
    } catch {
      throw apiError(400, 'INVALID_REQUEST', [
        { field: '/', location: 'body', issue: 'MALFORMED_REQUEST_JSON', description: 'The request JSON is not well formed.' },
      ]);
    }
  }

  function requireJson(req: IncomingMessage): void {
    if (!isJsonContentType(req)) {
      throw apiError(415, 'UNSUPPORTED_MEDIA_TYPE', undefined, 'The server does not support the request payload\'s media type. Send Content-Type: application/json.');
    }
  }

  function tokenEndpoint(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    const m = /^Basic\s+(\S+)$/i.exec(header(req, 'authorization') ?? '');
    const decoded = m?.[1] ? Buffer.from(m[1], 'base64').toString('utf8') : '';
    const sep = decoded.indexOf(':');
    const id = sep >= 0 ? decoded.slice(0, sep) : '';
    const secret = sep >= 0 ? decoded.slice(sep + 1) : '';
    if (id !== opts.clientId || secret !== opts.clientSecret) {
      return sendJson(res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
    }
    const grant = new URLSearchParams(raw.toString('utf8')).get('grant_type');
    if (!grant) return sendJson(res, 400, { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
    if (grant !== 'client_credentials') {
      return sendJson(res, 400, { error: 'unsupported_grant_type', error_description: `Grant Type ${grant} is not supported by the simulator` });
    }
    const token = `A21AA${crypto.randomBytes(66).toString('base64url')}`;
    tokens.set(token, Date.now() + TOKEN_TTL_SECONDS * 1000);
    sendJson(res, 200, {
      scope: SCOPE,
      access_token: token,
      token_type: 'Bearer',
      app_id: APP_ID,
      expires_in: TOKEN_TTL_SECONDS,
      nonce: `${now()}${crypto.randomBytes(32).toString('base64url')}`,
    });
  }

  function createOrder(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    requireBearer(req);
    const wantsFull = /return=representation/i.test(header(req, 'prefer') ?? '');
    const requestId = header(req, 'paypal-request-id');
    if (requestId) {
      const existing = createRequests.get(requestId);
      const o = existing ? orders.get(existing) : undefined;
      if (o) return sendJson(res, 200, wantsFull ? fullOrder(o) : minimalOrder(o));
    }
    requireJson(req);
    const input = validateCreate(parseJson(raw));
    if (input instanceof PaypalError) throw input;
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
    sendJson(res, 201, wantsFull ? fullOrder(o) : minimalOrder(o));
  }

  function getOrder(req: IncomingMessage, res: ServerResponse, id: string): void {
    requireBearer(req);
    const o = orders.get(id);
    if (!o) throw notFound('order_id', id);
    sendJson(res, 200, fullOrder(o));
  }

  function capture(req: IncomingMessage, res: ServerResponse, id: string, raw: Buffer): void {
    requireBearer(req);
    const o = orders.get(id);
    if (!o) throw notFound('order_id', id);
    const requestId = header(req, 'paypal-request-id');
    const key = requestId ? `${id}\n${requestId}` : undefined;
    const replay = key ? captureResponses.get(key) : undefined;
    if (replay) return sendJson(res, 201, replay);
    if (raw.length && raw.toString('utf8').trim()) {
      requireJson(req);
      parseJson(raw);
    }
    if (o.status === 'COMPLETED') {
      throw apiError(422, 'UNPROCESSABLE_ENTITY', [
        { issue: 'ORDER_ALREADY_CAPTURED', description: "Order already captured. If 'intent=CAPTURE' only one capture per order is allowed." },
      ]);
    }
    if (o.status !== 'APPROVED') {
      throw apiError(422, 'UNPROCESSABLE_ENTITY', [
        {
          issue: 'ORDER_NOT_APPROVED',
          description:
            "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'payer-action' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
        },
      ]);
    }
    const made = captureOrder(o);
    const body = JSON.stringify(fullOrder(o));
    if (key) captureResponses.set(key, body);
    sendJson(res, 201, body);
    for (const c of made) {
      const amount = `${c.amount.currency_code === 'USD' ? '$ ' : ''}${c.amount.value} ${c.amount.currency_code}`;
      const ev = makeEvent('PAYMENT.CAPTURE.COMPLETED', 'capture', `Payment completed for ${amount}`, captureResource(c, o.id));
      deliver(ev.id);
    }
  }

  function getCapture(req: IncomingMessage, res: ServerResponse, id: string): void {
    requireBearer(req);
    const ref = captures.get(id);
    const c = ref ? orders.get(ref.orderId)?.purchase_units[ref.unit]?.payments?.captures[0] : undefined;
    if (!ref || !c) throw notFound('capture_id', id);
    sendJson(res, 200, captureResource(c, ref.orderId));
  }

  function verifySignature(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    requireBearer(req);
    requireJson(req);
    const b = parseJson(raw);
    if (!isRecord(b)) throw apiError(400, 'INVALID_REQUEST', [{ field: '/', location: 'body', issue: 'MALFORMED_REQUEST_JSON', description: 'The request JSON is not well formed.' }]);
    const fields = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id'] as const;
    const problems: PaypalIssue[] = [];
    for (const k of fields) {
      if (b[k] === undefined || b[k] === null || b[k] === '') problems.push(missing(`/${k}`));
      else if (typeof b[k] !== 'string') problems.push(issue(`/${k}`, b[k], 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format.'));
    }
    if (b.webhook_event === undefined || b.webhook_event === null) problems.push(missing('/webhook_event'));
    else if (!isRecord(b.webhook_event)) problems.push(issue('/webhook_event', undefined, 'INVALID_PARAMETER_SYNTAX', 'webhook_event must be the event object.'));
    if (problems.length) throw apiError(400, 'INVALID_REQUEST', problems);
    const s = (k: (typeof fields)[number]) => b[k] as string;
    const sent = deliveries.get(s('transmission_id'));
    let ok =
      s('webhook_id') === opts.webhookId &&
      s('auth_algo') === 'SHA256withRSA' &&
      s('cert_url') === certUrl() &&
      sent !== undefined &&
      JSON.stringify(b.webhook_event) === sent.raw;
    if (ok && sent) {
      const message = `${s('transmission_id')}|${s('transmission_time')}|${s('webhook_id')}|${crc32(sent.raw)}`;
      try {
        ok = crypto.verify('sha256', Buffer.from(message, 'utf8'), publicKey, Buffer.from(s('transmission_sig'), 'base64'));
      } catch {
        ok = false;
      }
    }
    sendJson(res, 200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
  }

  function getEvent(req: IncomingMessage, res: ServerResponse, id: string): void {
    requireBearer(req);
    const e = events.get(id);
    if (!e) throw notFound('event_id', id);
    sendJson(res, 200, e.raw);
  }

  function resendEvent(req: IncomingMessage, res: ServerResponse, id: string): void {
    requireBearer(req);
    const e = events.get(id);
    if (!e) throw notFound('event_id', id);
    deliver(id);
    sendJson(res, 202, e.raw);
  }

  function checkoutPage(res: ServerResponse, token: string | null): void {
    const o = token ? orders.get(token) : undefined;
    if (!o) return pageNotFound(res, token);
    if (o.status === 'COMPLETED') return pageGone(res);
    const first = o.purchase_units[0];
    const currency = first?.amount.currency_code ?? 'USD';
    const total = o.purchase_units.reduce((sum, pu) => sum + toMinor(pu.amount.value, currency), 0n);
    sendHtml(
      res,
      200,
      renderApprovalPage({
        token: o.id,
        brandName: o.experience_context.brand_name ?? 'Test Store',
        lines: o.purchase_units.map((pu) => ({
          ...(pu.description !== undefined ? { description: pu.description } : {}),
          value: pu.amount.value,
          currency: pu.amount.currency_code,
        })),
        total: { value: fromMinor(total, currency), currency },
        buyerEmail: SIM_BUYER.email_address,
      }),
    );
  }

  function pageNotFound(res: ServerResponse, token: string | null): void {
    sendHtml(
      res,
      token ? 404 : 400,
      renderErrorPage(
        token ? 'Checkout not found' : 'Missing checkout token',
        token ? `There is no PayPal checkout with the token ${token}. It may have expired when the simulator restarted.` : 'This link has no checkout token.',
      ),
    );
  }

  function pageGone(res: ServerResponse): void {
    sendHtml(res, 410, renderErrorPage('Checkout already completed', 'This payment has already been completed, so it cannot be approved or cancelled again.'));
  }

  function checkoutAction(req: IncomingMessage, res: ServerResponse, action: 'approve' | 'cancel', raw: Buffer, query: URLSearchParams): void {
    const token = new URLSearchParams(raw.toString('utf8')).get('token') ?? query.get('token');
    const o = token ? orders.get(token) : undefined;
    if (!o) return pageNotFound(res, token);
    if (o.status === 'COMPLETED') return pageGone(res);
    if (action === 'approve') {
      approveOrder(o);
      const ret = o.experience_context.return_url;
      if (ret) return redirect(res, withQuery(ret, { token: o.id, PayerID: SIM_BUYER.payer_id }));
      return sendHtml(res, 200, renderResultPage('Payment approved', 'You approved the payment. You can close this window and return to the merchant.'));
    }
    const cancel = o.experience_context.cancel_url;
    if (cancel) return redirect(res, withQuery(cancel, { token: o.id }));
    sendHtml(res, 200, renderResultPage('Payment cancelled', 'You cancelled the payment. You can close this window and return to the merchant.'));
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { body: raw, tooLarge } = await readBody(req);
    // Everything below is synchronous: a request's check and its state change never interleave with another's.
    const u = new URL(req.url ?? '/', 'http://paypal-sim.invalid');
    const path = u.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    try {
      if (tooLarge) throw apiError(413, 'INVALID_REQUEST', undefined, 'Request body too large.');
      let m: RegExpExecArray | null = null;
      const route = (re: RegExp) => (m = re.exec(path)) !== null;
      const seg = (i: number) => decodeURIComponent(m?.[i] ?? '');
      const allow = (...methods: string[]) => {
        if (!methods.includes(method)) throw apiError(405, 'METHOD_NOT_SUPPORTED', undefined, 'The server does not implement the requested HTTP method.');
      };
      if (route(/^\/v1\/oauth2\/token$/)) {
        allow('POST');
        return tokenEndpoint(req, res, raw);
      }
      if (route(/^\/v2\/checkout\/orders$/)) {
        allow('POST');
        return createOrder(req, res, raw);
      }
      if (route(/^\/v2\/checkout\/orders\/([^/]+)$/)) {
        allow('GET');
        return getOrder(req, res, seg(1));
      }
      if (route(/^\/v2\/checkout\/orders\/([^/]+)\/capture$/)) {
        allow('POST');
        return capture(req, res, seg(1), raw);
      }
      if (route(/^\/v2\/payments\/captures\/([^/]+)$/)) {
        allow('GET');
        return getCapture(req, res, seg(1));
      }
      if (route(/^\/v1\/notifications\/verify-webhook-signature$/)) {
        allow('POST');
        return verifySignature(req, res, raw);
      }
      if (route(/^\/v1\/notifications\/webhooks-events\/([^/]+)$/)) {
        allow('GET');
        return getEvent(req, res, seg(1));
      }
      if (route(/^\/v1\/notifications\/webhooks-events\/([^/]+)\/resend$/)) {
        allow('POST');
        return resendEvent(req, res, seg(1));
      }
      if (route(/^\/v1\/notifications\/certs\/([^/]+)$/)) {
        allow('GET');
        if (seg(1) !== certId) throw notFound('cert_id', seg(1));
        res.writeHead(200, { 'content-type': 'application/x-pem-file', 'cache-control': 'public, max-age=3600' });
        return void res.end(publicKeyPem);
      }
      if (route(/^\/checkoutnow$/)) {
        allow('GET');
        return checkoutPage(res, u.searchParams.get('token'));
      }
      if (route(/^\/checkoutnow\/(approve|cancel)$/)) {
        allow('POST');
        return checkoutAction(req, res, seg(1) as 'approve' | 'cancel', raw, u.searchParams);
      }
      throw apiError(404, 'RESOURCE_NOT_FOUND', [
        { field: 'path', value: path, location: 'path', issue: 'INVALID_RESOURCE_ID', description: 'The simulator has no such endpoint.' },
      ]);
    } catch (err) {
      if (err instanceof PaypalError) return sendJson(res, err.status, err.body);
      throw err;
    }
  }

  const server = http.createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      log(`paypal-sim: internal error: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      if (res.headersSent) return void res.destroy();
      sendJson(res, 500, apiError(500, 'INTERNAL_SERVER_ERROR', undefined, 'An internal server error has occurred.').body);
    });
  });

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const shownHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
      url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
      publicBaseUrl = (opts.publicBaseUrl ?? url).replace(/\/+$/, '');
      resolve({
        url,
        async close() {
          if (closed) return;
          closed = true;
          for (const t of timers) clearTimeout(t);
          timers.clear();
          for (const ac of inflight) ac.abort();
          inflight.clear();
          await new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          });
        },
        setWebhookUrl(next) {
          webhookUrl = next;
        },
        orders() {
          return [...orders.values()].map((o) => structuredClone(o));
        },
        approve(orderId) {
          const o = orders.get(orderId);
          if (!o) throw new Error(`paypal-sim: no order ${orderId}`);
          if (o.status === 'COMPLETED') throw new Error(`paypal-sim: order ${orderId} is already completed`);
          approveOrder(o);
        },
      });
    });
  });
}
