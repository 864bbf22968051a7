/**
 * The payment use cases with small in-memory fakes of their ports: the rules that the simulator cannot easily
 * provoke (pending captures, amount or buyer mismatches, PayPal being down, declined captures).
 */
import { Messages } from '../../contract/errors';
import { CREDIT_PACKS } from '../../contract/packs';
import { PAYMENT_RETURN_PATHS, type PaymentReturnPath } from '../../contract/payments';
import { AppError, InvalidInput, ProviderError, Unauthorized } from '../../lambdas/domain/errors';
import { createPayment, type CreatePaymentDeps } from '../../lambdas/app/create-payment';
import { listPayments } from '../../lambdas/app/list-payments';
import { applyPaymentWebhook, type ApplyPaymentWebhookDeps } from '../../lambdas/app/apply-payment-webhook';
import { cancelPaymentReturn } from '../../lambdas/app/cancel-payment-return';
import { settlePaymentReturn } from '../../lambdas/app/settle-payment-return';
import { getPaymentOutcome } from '../../lambdas/app/get-payment-outcome';
import { reconcileOrders } from '../../lambdas/app/reconcile-orders';
import { settleOrder } from '../../lambdas/app/steps/settle-order';
import type { Account, AccountStore } from '../../lambdas/ports/accounts';
import { paymentEventOf } from '../../lambdas/adapters/paypal-webhooks';
import { creditsFor } from '../../lambdas/app/steps/take-back';
import type { Mail } from '../../lambdas/ports/mailer';
import {
  FundingDeclined,
  OrderAlreadyCaptured,
  OrderNotApproved,
  PaymentProviderUnavailable,
  PaymentRefused,
  type LedgerEntry,
  type NewProviderOrder,
  type Order,
  type OrderStore,
  type PaymentProvider,
  type PaymentEvent,
  type ProviderOrder,
  type StoredOrderStatus,
  type TakeBack,
} from '../../lambdas/ports/payments';
import type { WebhookDelivery } from '../../lambdas/ports/webhooks';

const OWNER = 'user-0001';
const BUYER = { sub: OWNER, email: 'buyer@example.com', firstName: 'B', lastName: 'Uyer' };

class FakePaypal implements PaymentProvider {
  orders = new Map<string, ProviderOrder>();
  created: NewProviderOrder[] = [];
  captureCalls = 0;
  down = false;
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
    const order = [...this.orders.values()].find((o) => o.captures[0]?.id === id);
    if (!order) throw new PaymentRefused('not found', 404, 'RESOURCE_NOT_FOUND');
    return { ...order.captures[0]!, orderId: order.id };
  }
  async verifyWebhook() {
    if (this.down) throw new PaymentProviderUnavailable('down');
    return this.genuine;
  }
  /** Like the adapter: verified by "PayPal", then parsed by the adapter's own parser. */
  async parseWebhook(d: WebhookDelivery): Promise<PaymentEvent | undefined> {
    if (!(await this.verifyWebhook())) return undefined;
    return paymentEventOf(JSON.parse(d.rawBody) as Record<string, unknown>);
  }
  approve(id: string) {
    this.orders.get(id)!.status = 'APPROVED';
  }
  completePendingCapture(id: string) {
    this.orders.get(id)!.captures[0]!.status = 'COMPLETED';
  }
}

class FakeOrders implements OrderStore {
  orders = new Map<string, Order>();
  balances = new Map<string, number>();
  ledger: LedgerEntry[] = [];
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
    if (!['created', 'pending', 'canceled'].includes(stored.status)) return { credited: false as const };
    stored.status = 'captured';
    Object.assign(stored, capture);
    const balance = (this.balances.get(order.owner) ?? 0) + order.credits;
    this.balances.set(order.owner, balance);
    this.ledger.push({ id: String(this.ledger.length), createdAt: capture.capturedAt, reason: 'purchase', delta: order.credits, balance, ref: order.id });
    return { credited: true as const, balance };
  }
  async list() {
    return { items: [...this.orders.values()] };
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
    if ((stored.refundedCents ?? 0) !== (order.refundedCents ?? 0) || stored.refundIds?.includes(t.refundId)) return { applied: false as const, why: 'stale' as const };
    const delta = -(t.creditsTakenBack - (stored.creditsTakenBack ?? 0));
    Object.assign(stored, { status: t.status, statusAt: t.at, refundedCents: t.refundedCents, creditsTakenBack: t.creditsTakenBack, refundIds: [...(stored.refundIds ?? []), t.refundId] });
    const balance = (this.balances.get(order.owner) ?? 0) + delta;
    this.balances.set(order.owner, balance);
    this.ledger.push({ id: String(this.ledger.length), createdAt: t.at, reason: t.reason, delta, balance, ref: order.id });
    return { applied: true as const, balance };
  }
  async setDispute(order: Order, dispute: 'open' | 'resolved') {
    this.orders.get(order.id)!.dispute = dispute;
  }
  closed = new Set<string>();
  async markReturned(order: Order, at: string) {
    this.orders.get(order.id)!.returnedAt ??= at;
  }
  /** Like the adapter's index: orders neither captured nor failed, not closed, oldest first. */
  async listOpen(limit: number, cursor?: string) {
    const from = Number(cursor ?? 0);
    const open = [...this.orders.values()]
      .filter((o) => ['created', 'pending', 'canceled'].includes(o.status) && !this.closed.has(o.id))
      .sort((a, b) => a.createdAt.localeCompare(b.createdAt));
    const items = open.slice(from, from + limit).map((o) => ({ ...o }));
    return { items, ...(from + limit < open.length ? { nextCursor: String(from + limit) } : {}) };
  }
  async closeOpen(order: Order) {
    this.closed.add(order.id);
  }
}

function setup() {
  const paypal = new FakePaypal();
  const orders = new FakeOrders();
  const seen = new Map<string, Record<string, string>>();
  const logs: Array<{ message: string; details: Record<string, unknown> }> = [];
  const accounts = new Map<string, Account>();
  const mails: Mail[] = [];
  const accountStore: AccountStore = {
    get: async (sub) => accounts.get(sub),
    balance: async (sub) => accounts.get(sub)?.credits ?? 0,
    createWithWelcome: async (a) => (accounts.has(a.sub) ? 'exists' : (accounts.set(a.sub, a), 'created')),
    isDeleted: async () => false,
  };
  const deps: CreatePaymentDeps & ApplyPaymentWebhookDeps = {
    accounts: accountStore,
    orders,
    provider: async () => paypal,
    appUrl: 'https://app.example.com/',
    now: () => new Date('2026-01-02T03:04:05.000Z'),
    newRequestId: () => `req-${paypal.created.length}`,
    log: (message, details) => logs.push({ message, details }),
    mailer: { send: async (m) => void mails.push(m) },
    webhooks: async () => ({ parse: (d) => paypal.parseWebhook(d) }),
    inbox: {
      claim: async (id, info) => (seen.has(id) ? false : (seen.set(id, { ...info }), true)),
      release: async (id) => void seen.delete(id),
      note: async (id, info) => void seen.set(id, { ...seen.get(id), ...info }),
    },
  };
  return { paypal, orders, seen, logs, deps, mails };
}

async function caught(p: Promise<unknown>): Promise<AppError> {
  try {
    await p;
  } catch (err) {
    if (err instanceof AppError) return err;
    throw err;
  }
  throw new Error('expected an error');
}

describe('createPayment', () => {
  it.each(CREDIT_PACKS.flatMap((p) => [[p.id, p.amount, p.credits], [p.id, Number(p.amount), p.credits]] as const))(
    '%s from amount %p: a PayPal order at the pack price, for the caller, coming back to our API',
    async (packId, amount, credits) => {
      const { deps, paypal, orders } = setup();
      const pack = CREDIT_PACKS.find((p) => p.id === packId)!;
      const result = await createPayment(deps, BUYER, { amount, credits });
      expect(paypal.created).toEqual([
        expect.objectContaining({
          amount: { currency: 'USD', value: pack.amount },
          customId: OWNER,
          referenceId: pack.id,
          description: `Framewright: ${pack.credits} credits`,
          returnUrl: 'https://app.example.com/api/paypal/return',
          cancelUrl: 'https://app.example.com/api/paypal/cancel',
          brandName: 'Framewright',
          requestId: 'req-0',
        }),
      ]);
      expect(result).toEqual({ orderId: 'ORDER000000000001', paymentUrl: 'https://paypal.test/checkoutnow?token=ORDER000000000001' });
      expect(await orders.get(result.orderId)).toEqual({
        id: result.orderId,
        owner: OWNER,
        packId: pack.id,
        credits: pack.credits,
        amount: pack.amount,
        currency: 'USD',
        status: 'created',
        createdAt: '2026-01-02T03:04:05.000Z',
        statusAt: '2026-01-02T03:04:05.000Z',
        approvalUrl: result.paymentUrl,
        returnPath: '/',
      });
    },
  );

  it.each(PAYMENT_RETURN_PATHS)('keeps returnPath %s on the order; PayPal still comes back to our API', async (returnPath) => {
    const { deps, paypal, orders } = setup();
    const { orderId } = await createPayment(deps, BUYER, { amount: '6.99', credits: 72, returnPath });
    expect(paypal.created[0]).toMatchObject({ returnUrl: 'https://app.example.com/api/paypal/return', cancelUrl: 'https://app.example.com/api/paypal/cancel' });
    expect((await orders.get(orderId))?.returnPath).toBe(returnPath);
  });

  it.each(['https://evil.example/', '//evil.example', '/generator/', '/admin?tab=x', '/login', '', 'generator'])(
    'refuses returnPath %p before asking PayPal',
    async (returnPath) => {
      const { deps, paypal, orders } = setup();
      const err = await caught(createPayment(deps, BUYER, { amount: '6.99', credits: 72, returnPath: returnPath as PaymentReturnPath }));
      expect(err).toBeInstanceOf(InvalidInput);
      expect(err.message).toBe(Messages.invalidReturnPath);
      expect(paypal.created).toHaveLength(0);
      expect(orders.orders.size).toBe(0);
    },
  );

  it('names every allowed return path in its refusal', () => {
    for (const path of PAYMENT_RETURN_PATHS) expect(Messages.invalidReturnPath).toContain(` ${path}`);
    expect(Messages.invalidReturnPath.match(/ \/[\w/-]*/g)).toHaveLength(PAYMENT_RETURN_PATHS.length);
  });

  it.each([
    ['6.99', 150],
    ['6.994', 72],
    [6.989, 72],
    ['6.9', 72],
    ['6.99', 71],
    ['1e1', 72],
    [' ', 72],
    [Number.NaN, 72],
    [Infinity, 300],
  ] as const)('refuses %p for %p credits without asking PayPal', async (amount, credits) => {
    const { deps, paypal, orders } = setup();
    const err = await caught(createPayment(deps, BUYER, { amount, credits }));
    expect(err).toBeInstanceOf(InvalidInput);
    expect(err.message).toBe(Messages.invalidPack);
    expect(paypal.created).toHaveLength(0);
    expect(orders.orders.size).toBe(0);
  });

  it('tells the buyer to try later when PayPal is down, and stores nothing', async () => {
    const { deps, paypal, orders, logs } = setup();
    paypal.down = true;
    const err = await caught(createPayment(deps, BUYER, { amount: '6.99', credits: 72 }));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe(Messages.paymentUnavailable);
    expect(orders.orders.size).toBe(0);
    expect(logs).toHaveLength(1);
  });
});

describe('settleOrder', () => {
  async function approvedOrder(ctx: ReturnType<typeof setup>, approve = true) {
    const { orderId } = await createPayment(ctx.deps, BUYER, { amount: '13.99', credits: 150 });
    if (approve) ctx.paypal.approve(orderId);
    return orderId;
  }

  it('captures and credits once; later calls do not even ask PayPal', async () => {
    const ctx = setup();
    const id = await approvedOrder(ctx);
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'credited', balance: 150 });
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'already-credited' });
    expect(await settleOrder(ctx.deps, id, 'check')).toMatchObject({ result: 'already-credited' });
    expect(ctx.paypal.captureCalls).toBe(1);
    expect(ctx.orders.ledger).toEqual([expect.objectContaining({ reason: 'purchase', delta: 150, balance: 150, ref: id })]);
    expect(ctx.orders.orders.get(id)).toMatchObject({ status: 'captured', captureId: `CAP-${id}` });
  });

  it('reads the order when PayPal says it was already captured, and credits it', async () => {
    const ctx = setup();
    const id = await approvedOrder(ctx);
    await ctx.paypal.captureOrder(id); // captured elsewhere (another Lambda, before it could record it)
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'credited', balance: 150 });
  });

  it('does nothing for unknown and unapproved orders', async () => {
    const ctx = setup();
    expect(await settleOrder(ctx.deps, 'NOSUCHORDER', 'capture')).toEqual({ result: 'unknown-order' });
    expect(ctx.paypal.captureCalls).toBe(0);
    const id = await approvedOrder(ctx, false);
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'not-approved' });
    expect(await settleOrder(ctx.deps, id, 'check')).toMatchObject({ result: 'pending' });
    expect(ctx.orders.ledger).toHaveLength(0);
  });

  it('waits for a pending capture, then credits when PayPal completes it', async () => {
    const ctx = setup();
    const id = await approvedOrder(ctx);
    ctx.paypal.captureAs = 'PENDING';
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'pending' });
    expect(ctx.orders.ledger).toHaveLength(0);
    ctx.paypal.completePendingCapture(id);
    expect(await settleOrder(ctx.deps, id, 'check')).toMatchObject({ result: 'credited', balance: 150 });
  });

  it.each([
    ['a different amount', (o: ProviderOrder) => (o.captures[0]!.amount = { currency: 'USD', value: '0.01' })],
    ['a different currency', (o: ProviderOrder) => (o.captures[0]!.amount = { currency: 'EUR', value: '13.99' })],
    ['another buyer', (o: ProviderOrder) => (o.captures[0]!.customId = 'someone-else')],
    ['no buyer', (o: ProviderOrder) => (o.captures[0]!.customId = undefined)],
    ['another order', (o: ProviderOrder) => (o.id = 'OTHERORDER0000000')],
  ])('never credits a capture for %s', async (_what, tamper) => {
    const ctx = setup();
    const id = await approvedOrder(ctx);
    ctx.paypal.tamper = (o) => {
      tamper(o);
      o.customId = o.captures[0]!.customId;
    };
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'refused' });
    expect(ctx.orders.ledger).toHaveLength(0);
    expect(ctx.orders.orders.get(id)).toMatchObject({ status: 'failed', failReason: expect.any(String) });
    expect(ctx.logs).toEqual([expect.objectContaining({ message: 'PayPal order not credited' })]);
    expect(ctx.mails).toHaveLength(0);
  });

  it('a declined capture fails the order and never credits it, even when PayPal later says COMPLETED', async () => {
    const ctx = setup();
    const id = await approvedOrder(ctx);
    ctx.paypal.captureAs = 'DECLINED';
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'refused' });
    expect(ctx.orders.orders.get(id)!.status).toBe('failed');
    ctx.paypal.completePendingCapture(id);
    expect(await settleOrder(ctx.deps, id, 'check')).toMatchObject({ result: 'refused' });
    expect(ctx.orders.ledger).toHaveLength(0);
  });

  it('INSTRUMENT_DECLINED sends the buyer back to the approval page; the order stays open', async () => {
    const ctx = setup();
    const id = await approvedOrder(ctx);
    ctx.paypal.captureAs = 'INSTRUMENT_DECLINED';
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'retry-approval', approvalUrl: `https://paypal.test/checkoutnow?token=${id}` });
    expect(ctx.orders.orders.get(id)!.status).toBe('created');
    ctx.paypal.captureAs = 'COMPLETED';
    expect(await settleOrder(ctx.deps, id, 'capture')).toMatchObject({ result: 'credited' });
  });

  it('a pending capture marks the order pending; crediting mails one receipt with the capture id', async () => {
    const ctx = setup();
    const id = await approvedOrder(ctx);
    ctx.paypal.captureAs = 'PENDING';
    await settleOrder(ctx.deps, id, 'capture');
    expect(ctx.orders.orders.get(id)!.status).toBe('pending');
    ctx.paypal.completePendingCapture(id);
    await Promise.all([settleOrder(ctx.deps, id, 'check'), settleOrder(ctx.deps, id, 'check')]);
    expect(ctx.mails).toHaveLength(1);
    expect(ctx.mails[0]!.to).toEqual([BUYER.email]);
    for (const part of ['$13.99', 'USD', '150', `CAP-${id}`, '2026-01-02T03:04:05.000Z']) expect(ctx.mails[0]!.text).toContain(part);
  });
});

describe('settlePaymentReturn', () => {
  const home = (outcome: Record<string, unknown>) => ({ outcome, returnPath: '/' });

  it('sends the buyer to success with the owner and credits, pending while PayPal is down, error otherwise', async () => {
    const ctx = setup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { amount: '6.99', credits: 72 });
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(home({ payment: 'error', order: orderId }));
    ctx.paypal.approve(orderId);
    ctx.paypal.down = true;
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(home({ payment: 'pending', order: orderId }));
    ctx.paypal.down = false;
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(home({ payment: 'success', order: orderId }));
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(home({ payment: 'success', order: orderId }));
    expect(ctx.orders.ledger).toHaveLength(1);
    expect(await settlePaymentReturn(ctx.deps, 'NOSUCHORDER00')).toEqual(home({ payment: 'error' }));
  });

  it("goes back to the order's page whatever the outcome", async () => {
    const ctx = setup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { amount: '6.99', credits: 72, returnPath: '/video-generator/wan' });
    const back = (outcome: Record<string, unknown>) => ({ outcome, returnPath: '/video-generator/wan' });
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(back({ payment: 'error', order: orderId }));
    ctx.paypal.approve(orderId);
    ctx.paypal.down = true;
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(back({ payment: 'pending', order: orderId }));
    ctx.paypal.down = false;
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(back({ payment: 'success', order: orderId }));
  });

  it("an order stored without a return path (before it existed) goes back to '/'", async () => {
    const ctx = setup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { amount: '6.99', credits: 72, returnPath: '/admin' });
    delete ctx.orders.orders.get(orderId)!.returnPath;
    ctx.paypal.approve(orderId);
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual(home({ payment: 'success', order: orderId }));
  });

  it('a declined funding source goes back to PayPal\u2019s approval page', async () => {
    const ctx = setup();
    const { orderId, paymentUrl } = await createPayment(ctx.deps, BUYER, { amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    ctx.paypal.captureAs = 'INSTRUMENT_DECLINED';
    expect(await settlePaymentReturn(ctx.deps, orderId)).toEqual({ approvalUrl: paymentUrl });
  });
});

describe('cancelPaymentReturn', () => {
  it("goes back to the order's page with payment=cancel and marks the order canceled; a later approval still credits it", async () => {
    const ctx = setup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { amount: '6.99', credits: 72, returnPath: '/generator' });
    expect(await cancelPaymentReturn(ctx.deps, orderId)).toEqual({ outcome: { payment: 'cancel', order: orderId }, returnPath: '/generator' });
    expect(ctx.orders.orders.get(orderId)).toMatchObject({ status: 'canceled', statusAt: '2026-01-02T03:04:05.000Z' });
    expect(ctx.paypal.captureCalls).toBe(0);
    ctx.paypal.approve(orderId);
    expect(await settleOrder(ctx.deps, orderId, 'capture')).toMatchObject({ result: 'credited' });
    // A cancel after payment changes nothing.
    await cancelPaymentReturn(ctx.deps, orderId);
    expect(ctx.orders.orders.get(orderId)!.status).toBe('captured');
  });

  it("an unknown order, or a table that does not answer, goes back to '/'", async () => {
    const ctx = setup();
    expect(await cancelPaymentReturn(ctx.deps, 'NOSUCHORDER00')).toEqual({ outcome: { payment: 'cancel' }, returnPath: '/' });
    const broken = { log: ctx.deps.log, now: ctx.deps.now, orders: Object.assign(Object.create(ctx.orders) as FakeOrders, { get: async () => Promise.reject(new Error('table down')) }) };
    expect(await cancelPaymentReturn(broken, 'ORDER000000000001')).toEqual({ outcome: { payment: 'cancel' }, returnPath: '/' });
    expect(ctx.logs).toEqual([expect.objectContaining({ message: 'Payment cancel could not read the order' })]);
  });
});

describe('applyPaymentWebhook', () => {
  const delivery = (event: Record<string, unknown>) => ({ headers: {}, rawBody: JSON.stringify(event), query: {} });
  const approvedEvent = (orderId: string, id = 'WH-1') => ({ id, event_type: 'CHECKOUT.ORDER.APPROVED', resource: { id: orderId, status: 'APPROVED' } });
  const captureEvent = (orderId: string, id = 'WH-2') => ({
    id,
    event_type: 'PAYMENT.CAPTURE.COMPLETED',
    resource: { id: `CAP-${orderId}`, status: 'COMPLETED', supplementary_data: { related_ids: { order_id: orderId } } },
  });

  it('refuses what PayPal does not confirm, and records nothing', async () => {
    const ctx = setup();
    ctx.paypal.genuine = false;
    const err = await caught(applyPaymentWebhook(ctx.deps, delivery(approvedEvent('ORDER000000000001'))));
    expect(err).toBeInstanceOf(Unauthorized);
    expect(err.message).toBe(Messages.invalidWebhookSignature);
    expect(ctx.seen.size).toBe(0);
  });

  it('CHECKOUT.ORDER.APPROVED captures and credits; a redelivery is a duplicate and asks nothing', async () => {
    const ctx = setup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    expect(await applyPaymentWebhook(ctx.deps, delivery(approvedEvent(orderId)))).toEqual({ handled: 'credited', eventType: 'CHECKOUT.ORDER.APPROVED' });
    expect(await applyPaymentWebhook(ctx.deps, delivery(approvedEvent(orderId)))).toEqual({ handled: 'duplicate' });
    expect(await applyPaymentWebhook(ctx.deps, delivery(captureEvent(orderId)))).toEqual({ handled: 'already-credited', eventType: 'PAYMENT.CAPTURE.COMPLETED' });
    expect(ctx.paypal.captureCalls).toBe(1);
    expect(ctx.orders.ledger).toHaveLength(1);
    expect(ctx.seen.get('WH-1')).toEqual({ eventType: 'CHECKOUT.ORDER.APPROVED', orderId, outcome: 'credited' });
  });

  it('PAYMENT.CAPTURE.COMPLETED credits a capture made elsewhere without capturing again', async () => {
    const ctx = setup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    await ctx.paypal.captureOrder(orderId);
    expect(await applyPaymentWebhook(ctx.deps, delivery(captureEvent(orderId)))).toEqual({ handled: 'credited', eventType: 'PAYMENT.CAPTURE.COMPLETED' });
    expect(ctx.paypal.captureCalls).toBe(1);
  });

  it('ignores other events and other merchants\u2019 orders, but remembers them', async () => {
    const ctx = setup();
    expect(await applyPaymentWebhook(ctx.deps, delivery({ id: 'WH-3', event_type: 'PAYMENT.CAPTURE.REFUNDED', resource: {} }))).toEqual({ handled: 'ignored', eventType: 'PAYMENT.CAPTURE.REFUNDED' });
    expect(await applyPaymentWebhook(ctx.deps, delivery(approvedEvent('NOTOURORDER00000', 'WH-4')))).toEqual({ handled: 'unknown-order', eventType: 'CHECKOUT.ORDER.APPROVED' });
    expect([...ctx.seen.keys()]).toEqual(['WH-3', 'WH-4']);
  });

  it('fails without recording the event while PayPal is down, so the redelivery settles it', async () => {
    const ctx = setup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    ctx.deps.provider = async () =>
      Object.assign(Object.create(ctx.paypal) as FakePaypal, {
        verifyWebhook: async () => true,
        captureOrder: async () => {
          throw new PaymentProviderUnavailable('timeout');
        },
      });
    await expect(applyPaymentWebhook(ctx.deps, delivery(approvedEvent(orderId)))).rejects.toBeInstanceOf(PaymentProviderUnavailable);
    expect(ctx.seen.size).toBe(0);
    ctx.deps.provider = async () => ctx.paypal;
    expect(await applyPaymentWebhook(ctx.deps, delivery(approvedEvent(orderId)))).toMatchObject({ handled: 'credited' });
  });
});

describe('listPayments', () => {
  const entry = (n: number): LedgerEntry => ({ id: `L${n}`, createdAt: `2026-01-0${n}T00:00:00.000Z`, reason: 'image', delta: -1, balance: n, ref: `job-${n}` });
  const deps = (orderCount: number, ledgerCount: number) => {
    const orders = Array.from({ length: orderCount }, (_, i): Order => ({
      id: `O${i}`, owner: OWNER, packId: 'pack-72', credits: 72, amount: '6.99', currency: 'USD', status: 'created', createdAt: `2026-02-0${i + 1}T00:00:00.000Z`,
    }));
    const ledger = Array.from({ length: ledgerCount }, (_, i) => entry(i + 1));
    // Paged like the adapters: an opaque cursor only when more follow, and a 400 for a cursor they did not make.
    const page = <T>(all: T[], prefix: string, limit: number, cursor?: string) => {
      if (cursor !== undefined && !/^\d+$/.test(cursor.slice(prefix.length))) throw new InvalidInput(Messages.invalidCursor);
      const start = cursor ? Number(cursor.slice(prefix.length)) + 1 : 0;
      const items = all.slice(start, start + limit);
      return { items, ...(start + limit < all.length ? { nextCursor: `${prefix}${start + limit - 1}` } : {}) };
    };
    return {
      orders: { list: async (_o: string, limit: number, after?: string) => page(orders, 'PAYMENT#', limit, after) } as unknown as OrderStore,
      ledger: { list: async (_o: string, limit: number, after?: string) => page(ledger, 'LEDGER#', limit, after) },
      now: () => new Date('2026-02-01T01:00:00.000Z'),
    };
  };

  it('walks both lists with one cursor until both end', async () => {
    const d = deps(1, 3);
    const first = await listPayments(d, OWNER, { limit: 2 });
    expect([first.orders.length, first.ledger.map((l) => l.id)]).toEqual([1, ['L1', 'L2']]);
    const second = await listPayments(d, OWNER, { limit: 2, cursor: first.nextCursor });
    expect([second.orders.length, second.ledger.map((l) => l.id)]).toEqual([0, ['L3']]);
    expect(second.nextCursor).toBeUndefined();
    expect((await listPayments(deps(0, 0), OWNER, { limit: 5 })).nextCursor).toBeUndefined();
  });

  it('refuses cursors it did not make', async () => {
    for (const cursor of ['%%%', 'bm90IGpzb24', Buffer.from('{"o":"USER#x","l":null}').toString('base64url'), Buffer.from('[]').toString('base64url')]) {
      const err = await caught(listPayments(deps(1, 1), OWNER, { limit: 2, cursor }));
      expect(err.message).toBe(Messages.invalidCursor);
    }
  });
});

describe('taking credits back', () => {
  const delivery = (event: Record<string, unknown>) => ({ headers: {}, rawBody: JSON.stringify(event), query: {} });
  const refundEvent = (id: string, captureId: string, value: string, type = 'PAYMENT.CAPTURE.REFUNDED') => ({
    id: `WH-${id}`,
    event_type: type,
    resource: { id, status: 'COMPLETED', amount: { currency_code: 'USD', value }, links: [{ rel: 'up', method: 'GET', href: `https://api.paypal.test/v2/payments/captures/${captureId}` }] },
  });

  async function paidOrder(ctx: ReturnType<typeof setup>) {
    const { orderId } = await createPayment(ctx.deps, BUYER, { amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    await settleOrder(ctx.deps, orderId, 'capture');
    return { orderId, captureId: `CAP-${orderId}` };
  }

  it('rounds each total half up and takes back exactly the pack when the refunds add up to the whole', () => {
    expect(creditsFor(72, 699, 699)).toBe(72);
    expect(creditsFor(72, 0, 699)).toBe(0);
    expect(creditsFor(72, 350, 699)).toBe(36);
    expect(creditsFor(72, 1, 699)).toBe(0);
    for (const split of [1, 100, 349, 350, 698]) expect(creditsFor(72, split, 699) + (72 - creditsFor(72, split, 699))).toBe(72);
    expect(creditsFor(150, 2000, 1399)).toBe(150);
  });

  it('two partial refunds take back the whole pack, each once, with refund ledger rows; a redelivered id changes nothing', async () => {
    const ctx = setup();
    const { orderId, captureId } = await paidOrder(ctx);
    expect(await applyPaymentWebhook(ctx.deps, delivery(refundEvent('R1', captureId, '2.00')))).toEqual({ handled: 'taken-back', eventType: 'PAYMENT.CAPTURE.REFUNDED' });
    expect(ctx.orders.orders.get(orderId)).toMatchObject({ status: 'partially_refunded', refundedCents: 200, creditsTakenBack: 21 });
    // The same refund under another event id (PayPal sends a refund once per webhook, but may resend it).
    expect(await applyPaymentWebhook(ctx.deps, delivery({ ...refundEvent('R1', captureId, '2.00'), id: 'WH-again' }))).toMatchObject({ handled: 'already-applied' });
    expect(await applyPaymentWebhook(ctx.deps, delivery(refundEvent('R2', captureId, '4.99')))).toMatchObject({ handled: 'taken-back' });
    expect(ctx.orders.orders.get(orderId)).toMatchObject({ status: 'refunded', refundedCents: 699, creditsTakenBack: 72 });
    expect(ctx.orders.ledger.map((l) => [l.reason, l.delta])).toEqual([
      ['purchase', 72],
      ['purchase-refund', -21],
      ['purchase-refund', -51],
    ]);
    expect(ctx.orders.balances.get(OWNER)).toBe(0);
  });

  it('a reversal is a chargeback, refunds of other captures or currencies are ignored', async () => {
    const ctx = setup();
    const { orderId, captureId } = await paidOrder(ctx);
    expect(await applyPaymentWebhook(ctx.deps, delivery(refundEvent('R9', 'NOTOURCAPTURE', '6.99')))).toMatchObject({ handled: 'unknown-order' });
    const eur = refundEvent('R8', captureId, '6.99');
    eur.resource.amount.currency_code = 'EUR';
    expect(await applyPaymentWebhook(ctx.deps, delivery(eur))).toMatchObject({ handled: 'ignored' });
    expect(await applyPaymentWebhook(ctx.deps, delivery(refundEvent('R7', captureId, '6.99', 'PAYMENT.CAPTURE.REVERSED')))).toMatchObject({ handled: 'taken-back' });
    expect(ctx.orders.orders.get(orderId)).toMatchObject({ status: 'reversed', creditsTakenBack: 72 });
    expect(ctx.orders.ledger.at(-1)).toMatchObject({ reason: 'chargeback', delta: -72 });
  });

  it('a refund that overtakes the purchase credits first, then takes back', async () => {
    const ctx = setup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    await ctx.paypal.captureOrder(orderId); // captured; our return and webhooks have not arrived yet
    const captureId = `CAP-${orderId}`;
    expect(await applyPaymentWebhook(ctx.deps, delivery(refundEvent('R1', captureId, '6.99')))).toMatchObject({ handled: 'taken-back' });
    expect(ctx.orders.ledger.map((l) => l.delta)).toEqual([72, -72]);
    expect(await settleOrder(ctx.deps, orderId, 'check')).toMatchObject({ result: 'already-credited' });
    expect(ctx.orders.ledger).toHaveLength(2);
  });
});

describe('reconcileOrders', () => {
  const order = (ctx: ReturnType<typeof setup>) => createPayment(ctx.deps, BUYER, { amount: '6.99', credits: 72 }).then((r) => r.orderId);
  const outcomeDeps = (ctx: ReturnType<typeof setup>) => ({ orders: ctx.orders, accounts: ctx.deps.accounts, now: ctx.deps.now });

  it('a return that could not reach PayPal says pending; the reconciler captures once PayPal is back, and only once', async () => {
    const ctx = setup();
    const id = await order(ctx);
    ctx.paypal.approve(id);
    ctx.paypal.down = true;
    expect(await settlePaymentReturn(ctx.deps, id)).toMatchObject({ outcome: { payment: 'pending', order: id } });
    expect(await getPaymentOutcome(outcomeDeps(ctx), id)).toEqual({ outcome: 'pending' });
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 1, settled: { unreachable: 1 } });
    ctx.paypal.down = false;
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 1, settled: { credited: 1 } });
    expect(await getPaymentOutcome(outcomeDeps(ctx), id)).toMatchObject({ outcome: 'success', credits: 72 });
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 0, settled: {} });
    expect(ctx.orders.ledger.filter((l) => l.ref === id)).toHaveLength(1);
  });

  it('reads every open order, page after page, not only the oldest hundred', async () => {
    const ctx = setup();
    for (let i = 0; i < 230; i++) await order(ctx);
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 230, settled: { 'not-approved': 230 } });
  });

  it('an unapproved order stays open (outcome error) until its approval window is over, then leaves the open list', async () => {
    const ctx = setup();
    const id = await order(ctx);
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 1, settled: { 'not-approved': 1 } });
    expect(await getPaymentOutcome(outcomeDeps(ctx), id)).toEqual({ outcome: 'error' });
    const later = { ...ctx.deps, now: () => new Date(Date.parse('2026-01-02T03:04:05.000Z') + 4 * 3_600_000) };
    expect(await reconcileOrders(later)).toEqual({ open: 1, settled: { closed: 1 } });
    expect(await reconcileOrders(later)).toEqual({ open: 0, settled: {} });
    expect(ctx.orders.ledger.filter((l) => l.ref === id)).toHaveLength(0);
  });

  it('a held capture is read, not captured again, and credited when PayPal completes it', async () => {
    const ctx = setup();
    const id = await order(ctx);
    ctx.paypal.approve(id);
    ctx.paypal.captureAs = 'PENDING';
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 1, settled: { pending: 1 } });
    const calls = ctx.paypal.captureCalls;
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 1, settled: { pending: 1 } });
    expect(ctx.paypal.captureCalls).toBe(calls);
    ctx.paypal.orders.get(id)!.captures[0]!.status = 'COMPLETED';
    expect(await reconcileOrders(ctx.deps)).toEqual({ open: 1, settled: { credited: 1 } });
    expect(ctx.orders.ledger.filter((l) => l.ref === id)).toHaveLength(1);
  });
});
