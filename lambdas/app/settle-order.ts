/**
 * Settling an order: capture it at PayPal (or read it), check that what PayPal captured is exactly what we sold
 * to whom we sold it, and credit the pack once. Both triggers, the buyer's return and PayPal's webhooks, run the
 * same steps in any order and any number of times: the order's created -> captured transition is made in the
 * same transaction as the credits, so whichever comes first credits and the others change nothing.
 */
import { toCents } from '../../contract/packs';
import {
  DEFAULT_PAYMENT_RETURN_PATH,
  PaypalOrderId,
  PaypalRedirectQuery,
  type PaymentReturnParams,
  type PaymentReturnPath,
} from '../../contract/payments';
import { Messages } from '../../contract/errors';
import {
  OrderNotApproved,
  PaymentRefused,
  type Order,
  type OrderStore,
  type PaymentProvider,
  type ProviderOrder,
  type WebhookDelivery,
  type WebhookInbox,
} from '../ports/payments';
import { Unauthorized } from './errors';

export interface SettleDeps {
  orders: OrderStore;
  provider: () => Promise<PaymentProvider>;
  now: () => Date;
  log: (message: string, details: Record<string, unknown>) => void;
}

export type Settlement =
  | { result: 'credited'; order: Order; balance: number }
  | { result: 'already-credited'; order: Order }
  /** PayPal holds the capture (e.g. PENDING review): PAYMENT.CAPTURE.COMPLETED will settle it later. */
  | { result: 'pending'; order: Order }
  | { result: 'not-approved'; order: Order }
  /** PayPal refused the capture, or captured something other than what we sold: never credited. */
  | { result: 'refused'; order: Order; reason: string }
  | { result: 'unknown-order' };

/** Every capture of an order uses the same PayPal-Request-Id, so concurrent and retried captures are one capture. */
const captureRequestId = (orderId: string) => `capture-${orderId}`;

/**
 * Settles one of our orders. `capture` asks PayPal to capture it (the buyer approved it); `check` only reads it
 * (PayPal says it captured it). Throws PaymentProviderUnavailable when PayPal cannot be reached: try again later.
 */
export async function settleOrder(deps: SettleDeps, orderId: string, mode: 'capture' | 'check'): Promise<Settlement> {
  const order = await deps.orders.get(orderId);
  if (!order) return { result: 'unknown-order' };
  return settleStoredOrder(deps, order, mode);
}

/** settleOrder for an order just read from our table. */
async function settleStoredOrder(deps: SettleDeps, order: Order, mode: 'capture' | 'check'): Promise<Settlement> {
  if (order.status === 'captured') return { result: 'already-credited', order };

  const provider = await deps.provider();
  let remote: ProviderOrder;
  if (mode === 'capture') {
    try {
      remote = await provider.captureOrder(order.id, captureRequestId(order.id));
    } catch (err) {
      if (err instanceof OrderNotApproved) return { result: 'not-approved', order };
      if (!(err instanceof PaymentRefused)) throw err;
      // ORDER_ALREADY_CAPTURED, or another capture of the same order was under way: PayPal's order says what
      // happened. Anything but a completed order (e.g. INSTRUMENT_DECLINED) is not paid.
      remote = await provider.getOrder(order.id);
      if (remote.status !== 'COMPLETED') return refused(deps, order, err.message);
    }
  } else {
    try {
      remote = await provider.getOrder(order.id);
    } catch (err) {
      if (err instanceof PaymentRefused) return refused(deps, order, err.message);
      throw err;
    }
  }

  if (remote.status === 'APPROVED' || remote.status === 'CREATED' || remote.status === 'PAYER_ACTION_REQUIRED') {
    return mode === 'capture' ? { result: 'not-approved', order } : { result: 'pending', order };
  }
  const capture = remote.captures[0];
  if (remote.status !== 'COMPLETED' || !capture) return refused(deps, order, `order status ${remote.status}`);
  if (capture.status === 'PENDING') return { result: 'pending', order };
  if (capture.status !== 'COMPLETED') return refused(deps, order, `capture ${capture.id} status ${capture.status}`);

  const mismatch = mismatchOf(order, remote);
  if (mismatch) return refused(deps, order, mismatch);

  const r = await deps.orders.captureAndCredit(order, { captureId: capture.id, capturedAt: deps.now().toISOString() });
  if (r.credited) return { result: 'credited', order: { ...order, status: 'captured', captureId: capture.id }, balance: r.balance };
  return { result: 'already-credited', order };
}

/** Why PayPal's order is not the one we sold (a different amount, currency or buyer), or undefined. */
function mismatchOf(order: Order, remote: ProviderOrder): string | undefined {
  const capture = remote.captures[0]!;
  if (remote.id !== order.id) return `PayPal returned order ${remote.id}`;
  const paid = capture.amount ?? remote.amount;
  if (!paid || paid.currency !== order.currency) return `currency ${paid?.currency} instead of ${order.currency}`;
  if (toCents(paid.value) === undefined || toCents(paid.value) !== toCents(order.amount)) return `amount ${paid.value} instead of ${order.amount}`;
  const customId = capture.customId ?? remote.customId;
  if (customId !== order.owner) return `custom_id ${customId} instead of the order's owner`;
  return undefined;
}

function refused(deps: SettleDeps, order: Order, reason: string): Settlement {
  deps.log('PayPal order not credited', { orderId: order.id, owner: order.owner, reason });
  return { result: 'refused', order, reason };
}

/** Where PayPal's return or cancel sends the browser: the order's page in the app, with what to show there. */
export interface PaymentRedirect {
  outcome: PaymentReturnParams;
  returnPath: PaymentReturnPath;
}

/**
 * The buyer is back from PayPal (GET /api/paypal/return?token=<orderId>): capture and credit, then say what to
 * show and on which page (the one the buyer started from, stored on the order). The query string carries no
 * authority: only PayPal's answer about our stored order credits anything, and only to that order's owner.
 */
export async function completePaymentReturn(deps: SettleDeps, query: Record<string, string>): Promise<PaymentRedirect> {
  const parsed = PaypalRedirectQuery.safeParse(query);
  if (!parsed.success) return { outcome: { payment: 'error' }, returnPath: DEFAULT_PAYMENT_RETURN_PATH };
  let order: Order | undefined;
  let s: Settlement;
  try {
    order = await deps.orders.get(parsed.data.token);
    if (!order) return { outcome: { payment: 'error' }, returnPath: DEFAULT_PAYMENT_RETURN_PATH };
    s = await settleStoredOrder(deps, order, 'capture');
  } catch (err) {
    // PayPal or our table did not answer: the order may be paid. PayPal's webhooks keep coming until it is settled.
    deps.log('Payment return could not be settled now', { orderId: parsed.data.token, error: (err as Error).message });
    return { outcome: { payment: 'pending' }, returnPath: order?.returnPath ?? DEFAULT_PAYMENT_RETURN_PATH };
  }
  const returnPath = order.returnPath ?? DEFAULT_PAYMENT_RETURN_PATH;
  switch (s.result) {
    case 'credited':
    case 'already-credited':
      return { outcome: { payment: 'success', userId: s.order.owner, credits: s.order.credits }, returnPath };
    case 'pending':
      return { outcome: { payment: 'pending' }, returnPath };
    default:
      return { outcome: { payment: 'error' }, returnPath };
  }
}

/**
 * The buyer cancelled on PayPal (GET /api/paypal/cancel?token=<orderId>): nothing changes (PayPal keeps the order
 * open, and an unauthenticated GET must not alter an order anyway); only the page to go back to is looked up.
 */
export async function cancelPaymentReturn(deps: Pick<SettleDeps, 'orders' | 'log'>, query: Record<string, string>): Promise<PaymentRedirect> {
  const outcome: PaymentReturnParams = { payment: 'cancel' };
  const parsed = PaypalRedirectQuery.safeParse(query);
  if (!parsed.success) return { outcome, returnPath: DEFAULT_PAYMENT_RETURN_PATH };
  try {
    const order = await deps.orders.get(parsed.data.token);
    return { outcome, returnPath: order?.returnPath ?? DEFAULT_PAYMENT_RETURN_PATH };
  } catch (err) {
    // Nothing to settle: the landing page is a fine place to say so when the table does not answer.
    deps.log('Payment cancel could not read the order', { orderId: parsed.data.token, error: (err as Error).message });
    return { outcome, returnPath: DEFAULT_PAYMENT_RETURN_PATH };
  }
}

export interface WebhookDeps extends SettleDeps {
  inbox: WebhookInbox;
}

export type WebhookOutcome = { handled: 'duplicate' } | { handled: 'ignored'; eventType: string } | { handled: Settlement['result']; eventType: string };

type Json = Record<string, unknown>;
const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The order an event is about: the order itself (CHECKOUT.ORDER.*) or the capture's order (PAYMENT.CAPTURE.*). */
function orderIdOf(event: Json): string | undefined {
  const resource = isRecord(event.resource) ? event.resource : {};
  let id: unknown;
  if (event.event_type === 'CHECKOUT.ORDER.APPROVED') id = resource.id;
  if (event.event_type === 'PAYMENT.CAPTURE.COMPLETED') {
    const sup = isRecord(resource.supplementary_data) ? resource.supplementary_data : {};
    id = isRecord(sup.related_ids) ? sup.related_ids.order_id : undefined;
  }
  return PaypalOrderId.safeParse(id).success ? (id as string) : undefined;
}

/**
 * A PayPal webhook: verified by PayPal itself, handled once per event id. CHECKOUT.ORDER.APPROVED captures and
 * credits (the buyer may never come back to the return URL); PAYMENT.CAPTURE.COMPLETED credits an order whose
 * capture completed later. Throws while PayPal or our table cannot be reached, so PayPal delivers the event again.
 */
export async function handlePaymentWebhook(deps: WebhookDeps, delivery: WebhookDelivery): Promise<WebhookOutcome> {
  const provider = await deps.provider();
  if (!(await provider.verifyWebhook(delivery))) throw new Unauthorized(Messages.invalidWebhookSignature);
  const event = JSON.parse(delivery.rawBody) as unknown;
  if (!isRecord(event) || typeof event.id !== 'string') return { handled: 'ignored', eventType: 'unknown' };
  const eventType = String(event.event_type ?? '');
  if (await deps.inbox.seen(event.id)) return { handled: 'duplicate' };

  const orderId = orderIdOf(event);
  let outcome: WebhookOutcome = { handled: 'ignored', eventType };
  if (orderId) {
    const s = await settleOrder(deps, orderId, eventType === 'CHECKOUT.ORDER.APPROVED' ? 'capture' : 'check');
    outcome = { handled: s.result, eventType };
  }
  await deps.inbox.record(event.id, { eventType, ...(orderId ? { orderId } : {}), outcome: outcome.handled });
  return outcome;
}
