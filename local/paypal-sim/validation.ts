/**
 * Checking request bodies as PayPal does: schema problems answer 400 INVALID_REQUEST, business rules 422
 * UNPROCESSABLE_ENTITY, each with the JSON-pointer field and issue code PayPal uses.
 */
import { apiError, httpUrl, issue, malformedJson, missing, PaypalError, type Findings } from './errors';
import { money, toMinor } from './money';
import { isRecord, type Json, type PaypalIssue, type SimExperienceContext, type SimMoney, type SimPurchaseUnit } from './types';

const USER_ACTIONS = new Set(['CONTINUE', 'PAY_NOW']);
const SHIPPING_PREFERENCES = new Set(['GET_FROM_FILE', 'NO_SHIPPING', 'SET_PROVIDED_ADDRESS']);
const LANDING_PAGES = new Set(['LOGIN', 'GUEST_CHECKOUT', 'NO_PREFERENCE', 'BILLING']);
const PAYMENT_METHOD_PREFERENCES = new Set(['UNRESTRICTED', 'IMMEDIATE_PAYMENT_REQUIRED']);
const BREAKDOWN_ADD = ['item_total', 'shipping', 'handling', 'tax_total', 'insurance'] as const;
const BREAKDOWN_SUB = ['shipping_discount', 'discount'] as const;

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
  return v === undefined ? undefined : httpUrl(v, path, f);
}

export interface CreateInput {
  units: Omit<SimPurchaseUnit, 'payee' | 'payments'>[];
  experience: SimExperienceContext;
  hasPaypalSource: boolean;
}

export function validateCreate(body: unknown): CreateInput | PaypalError {
  if (!isRecord(body)) return malformedJson();
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
      payment_method_preference: optEnum(ctx, 'payment_method_preference', `${p}/payment_method_preference`, PAYMENT_METHOD_PREFERENCES, f),
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

const VERIFY_FIELDS = ['auth_algo', 'cert_url', 'transmission_id', 'transmission_sig', 'transmission_time', 'webhook_id'] as const;

/** A POST /v1/notifications/verify-webhook-signature body: the delivery's headers, the webhook id, and the event. */
export type VerifyRequest = Record<(typeof VERIFY_FIELDS)[number], string> & { webhook_event: Json };

export function validateVerify(b: unknown): VerifyRequest {
  if (!isRecord(b)) throw malformedJson();
  const problems: PaypalIssue[] = [];
  for (const k of VERIFY_FIELDS) {
    if (b[k] === undefined || b[k] === null || b[k] === '') problems.push(missing(`/${k}`));
    else if (typeof b[k] !== 'string') problems.push(issue(`/${k}`, b[k], 'INVALID_PARAMETER_SYNTAX', 'The value of a field does not conform to the expected format.'));
  }
  if (b.webhook_event === undefined || b.webhook_event === null) problems.push(missing('/webhook_event'));
  else if (!isRecord(b.webhook_event)) problems.push(issue('/webhook_event', undefined, 'INVALID_PARAMETER_SYNTAX', 'webhook_event must be the event object.'));
  if (problems.length) throw apiError(400, 'INVALID_REQUEST', problems);
  return b as VerifyRequest;
}

/** A POST /v2/payments/captures/{id}/refund body: empty (refund what is left) or with a partial amount. */
export interface RefundInput {
  amount?: SimMoney;
  note_to_payer?: string;
  invoice_id?: string;
  custom_id?: string;
}

export function validateRefund(b: unknown): RefundInput {
  if (b === undefined) return {};
  if (!isRecord(b)) throw malformedJson();
  const f: Findings = { bad: [], unprocessable: [] };
  const amount = b.amount === undefined ? undefined : money(b.amount, '/amount', f, { positive: true });
  const note_to_payer = optString(b, 'note_to_payer', '/note_to_payer', 255, f);
  const invoice_id = optString(b, 'invoice_id', '/invoice_id', 127, f);
  const custom_id = optString(b, 'custom_id', '/custom_id', 127, f);
  if (f.bad.length) throw apiError(400, 'INVALID_REQUEST', f.bad);
  if (f.unprocessable.length) throw apiError(422, 'UNPROCESSABLE_ENTITY', f.unprocessable);
  return {
    ...(amount ? { amount } : {}),
    ...(note_to_payer !== undefined ? { note_to_payer } : {}),
    ...(invoice_id !== undefined ? { invoice_id } : {}),
    ...(custom_id !== undefined ? { custom_id } : {}),
  };
}
