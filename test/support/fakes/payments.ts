/**
 * PayPal and our orders in memory. FakePaypal plays Orders v2 (create, approve, capture with its refusals, a held or
 * declined capture, an outage); MemoryOrders keeps the DynamoDB adapter's conditions, and credits or takes back only
 * through MemoryCredits, so every purchase, refund and chargeback is one change with its ledger row.
 * `paymentsSetup` wires them as the payment use cases' ports.
 */
import type { CreatePaymentDeps } from '../../../lambdas/app/create-payment';
import type { ApplyPaymentWebhookDeps } from '../../../lambdas/app/apply-payment-webhook';
import { paymentEventOf } from '../../../lambdas/adapters/paypal-webhooks';
import type { Mail } from '../../../lambdas/ports/mailer';
import {
  FundingDeclined,
  OrderAlreadyCaptured,
  OrderNotApproved,
  PaymentProviderUnavailable,
  PaymentRefused,
  type NewProviderOrder,
  type Order,
  type OrderStore,
  type PaymentEvent,
  type PaymentProvider,
  type PaymentWebhooks,
  type ProviderOrder,
  type StoredOrderStatus,
  type TakeBack,
} from '../../../lambdas/ports/payments';
import type { WebhookDelivery } from '../../../lambdas/ports/webhooks';
import { testClock } from './clock';
import { MemoryCredits } from './credits';
import { MemoryInbox } from './webhooks';

export class FakePaypal implements PaymentProvider {
  orders = new Map<string, ProviderOrder>();
  created: NewProviderOrder[] = [];
  captureCalls = 0;
  down = false;
  /** Whether PayPal confirms a webhook delivery as genuine. */
  genuine = true;
  /** What the next capture does. */
  captureAs: 'COMPLETED' | 'PENDING' | 'DECLINED' | 'INSTRUMENT_DECLINED' = 'COMPLETED';
  tamper?: (o: ProviderOrder) => void;

  async createOrder(o: NewProviderOrder) {
    if (this.down) throw new PaymentProviderUnavailable('down');
    this.created.push(o);
    const id = `ORDER${String(this.orders.size + 1).padStart(12, '0')}`;
    const order: ProviderOrder = { id, status: 'PAYER_ACTION_REQUIRED', amount: o.amount, customId: o.customId, captures: [], approvalUrl: `https://paypal.test/checkoutnow?token=${id}` };
    this.orders.set(id, order);
    return structuredClone(order);
  }
  async getOrder(id: string) {
    if (this.down) throw new PaymentProviderUnavailable('down');
    const o = this.orders.get(id);
    if (!o) throw new PaymentRefused('not found', 404, 'RESOURCE_NOT_FOUND');
    return structuredClone(o);
  }
  async captureOrder(id: string) {
    this.captureCalls++;
    if (this.down) throw new PaymentProviderUnavailable('down');
    const o = this.orders.get(id)!;
    if (o.status === 'COMPLETED') throw new OrderAlreadyCaptured('captured', 422, 'UNPROCESSABLE_ENTITY', 'ORDER_ALREADY_CAPTURED');
    if (o.status !== 'APPROVED') throw new OrderNotApproved('not approved', 422, 'UNPROCESSABLE_ENTITY', 'ORDER_NOT_APPROVED');
    if (this.captureAs === 'INSTRUMENT_DECLINED') throw new FundingDeclined('declined', 422, 'UNPROCESSABLE_ENTITY', 'INSTRUMENT_DECLINED');
    o.status = 'COMPLETED';
    o.captures = [{ id: `CAP-${id}`, status: this.captureAs, amount: o.amount, customId: o.customId }];
    this.tamper?.(o);
    return structuredClone(o);
  }
  async getCapture(id: string) {
    if (this.down) throw new PaymentProviderUnavailable('down');
    const order = [...this.orders.values()].find((o) => o.captures[0]?.id === id);
    if (!order) throw new PaymentRefused('not found', 404, 'RESOURCE_NOT_FOUND');
    return { ...order.captures[0]!, orderId: order.id };
  }
  /** Like the adapter: verified by "PayPal" (which may be down), then parsed by the adapter's own parser. */
  webhooks(): PaymentWebhooks {
    return {
      parse: async (d: WebhookDelivery): Promise<PaymentEvent | undefined> => {
        if (this.down) throw new PaymentProviderUnavailable('down');
        if (!this.genuine) return undefined;
        return paymentEventOf(JSON.parse(d.rawBody) as Record<string, unknown>);
      },
    };
  }
  approve(id: string) {
    this.orders.get(id)!.status = 'APPROVED';
  }
  completePendingCapture(id: string) {
    this.orders.get(id)!.captures[0]!.status = 'COMPLETED';
  }
}

const UNPAID: readonly StoredOrderStatus[] = ['created', 'pending', 'canceled'];

export class MemoryOrders implements OrderStore {
  orders = new Map<string, Order>();
  closed = new Set<string>();

  constructor(private readonly credits: MemoryCredits) {}

  async create(o: Order) {
    if (this.orders.has(o.id)) throw new Error('exists');
    this.orders.set(o.id, { ...o });
  }
  async get(id: string) {
    const o = this.orders.get(id);
    return o && { ...o };
  }
  async captureAndCredit(order: Order, capture: { captureId: string; capturedAt: string }) {
    const stored = this.orders.get(order.id)!;
    const r = this.credits.change({
      sub: order.owner,
      delta: order.credits,
      reason: 'purchase',
      ref: order.id,
      at: capture.capturedAt,
      transition: { holds: () => UNPAID.includes(stored.status), apply: () => void Object.assign(stored, { status: 'captured', statusAt: capture.capturedAt }, capture) },
    });
    return r.ok ? { credited: true as const, balance: r.balance } : { credited: false as const };
  }
  async list(owner: string) {
    return { items: [...this.orders.values()].filter((o) => o.owner === owner).reverse() };
  }
  async transition(order: Order, from: StoredOrderStatus[], to: StoredOrderStatus, at: string, extra: { failReason?: string } = {}) {
    const stored = this.orders.get(order.id)!;
    if (!from.includes(stored.status)) return false;
    Object.assign(stored, { status: to, statusAt: at }, extra);
    return true;
  }
  /** Like the adapter: conditioned on the refunded total as read and the refund not applied yet. */
  async takeBack(order: Order, t: TakeBack) {
    const stored = this.orders.get(order.id)!;
    const holds = () => (stored.refundedCents ?? 0) === (order.refundedCents ?? 0) && !stored.refundIds?.includes(t.refundId);
    const apply = () =>
      void Object.assign(stored, { status: t.status, statusAt: t.at, refundedCents: t.refundedCents, creditsTakenBack: t.creditsTakenBack, refundIds: [...(stored.refundIds ?? []), t.refundId] });
    if (t.creditsTakenBack === (stored.creditsTakenBack ?? 0)) {
      // As the adapter: nothing to take back (a refund of a cent, or the whole already taken back): the totals alone.
      if (!holds()) return { applied: false as const, why: 'stale' as const };
      apply();
      return { applied: true as const, balance: this.credits.balances(order.owner).credits };
    }
    const r = this.credits.change({
      sub: order.owner,
      delta: -(t.creditsTakenBack - (stored.creditsTakenBack ?? 0)),
      reason: t.reason,
      ref: order.id,
      at: t.at,
      allowNegative: true,
      // A plan's payment gave plan credits: its claw-back takes plan credits first.
      ...(order.subscriptionId ? { plan: { kind: 'first' as const } } : {}),
      transition: { holds, apply },
    });
    return r.ok ? { applied: true as const, balance: r.balance } : { applied: false as const, why: 'stale' as const };
  }
  async setDispute(order: Order, dispute: 'open' | 'resolved') {
    this.orders.get(order.id)!.dispute = dispute;
  }
  async markReturned(order: Order, at: string) {
    this.orders.get(order.id)!.returnedAt ??= at;
  }
  /** Like the adapter's index: orders neither captured nor failed, not closed, oldest first. */
  async listOpen(limit: number, cursor?: string) {
    const open = [...this.orders.values()].filter((o) => UNPAID.includes(o.status) && !this.closed.has(o.id)).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const start = cursor ? Number(cursor) : 0;
    return { items: open.slice(start, start + limit).map((o) => ({ ...o })), ...(start + limit < open.length ? { nextCursor: String(start + limit) } : {}) };
  }
  async closeOpen(order: Order) {
    this.closed.add(order.id);
  }
}

export const BUYER = { sub: 'user-0001', email: 'buyer@example.com', firstName: 'B', lastName: 'Uyer' };

/** The payment use cases' ports, in memory; the buyer's account starts with no credits (its welcome was had). */
export function paymentsSetup() {
  const paypal = new FakePaypal();
  const credits = new MemoryCredits(0);
  const orders = new MemoryOrders(credits);
  const inbox = new MemoryInbox();
  const logs: Array<{ message: string; details: Record<string, unknown> }> = [];
  const mails: Mail[] = [];
  const clock = testClock();
  let requests = 0;
  const deps: CreatePaymentDeps & ApplyPaymentWebhookDeps = {
    accounts: credits,
    orders,
    provider: async () => paypal,
    appUrl: 'https://app.example.com/',
    now: clock.now,
    newRequestId: () => `req-${requests++}`,
    log: (message, details) => logs.push({ message, details }),
    mailer: { send: async (m) => void mails.push(m) },
    webhooks: async () => paypal.webhooks(),
    // These fakes send no subscription event: reaching the plans' ports is a failure.
    subscriptions: new Proxy({} as ApplyPaymentWebhookDeps['subscriptions'], {
      get: (_t, name) => () => Promise.reject(new Error(`subscriptions.${String(name)} called`)),
    }),
    subscriptionProvider: () => Promise.reject(new Error('subscriptionProvider called')),
    inbox,
  };
  return { paypal, orders, credits, inbox, logs, mails, clock, deps };
}

export type PaymentsContext = ReturnType<typeof paymentsSetup>;

/** A PayPal webhook delivery of `event` (verification is FakePaypal's `genuine`). */
export const paypalDelivery = (event: Record<string, unknown>): WebhookDelivery => ({ headers: {}, rawBody: JSON.stringify(event), query: {} });
