/**
 * PayPal Subscriptions and our subscription records in memory. FakePaypalSubscriptions plays PayPal's side as the
 * simulator does (approval bills the first month at once; a completed cycle makes a sale and moves the billing date a
 * month on; failed cycles add to what is outstanding and suspend at the threshold; reactivating collects it; an
 * approved revision changes the plan at once and its price is billed from the next cycle); MemorySubscriptions keeps
 * the DynamoDB adapter's conditions (one active or suspended plan; a sale granted once, stored as a captured order, in
 * one credit change with its ledger rows). `subscriptionsSetup` wires them beside the payment fakes.
 */
import type { Plan } from '../../../contract/plans';
import type { ApplyPaymentWebhookDeps } from '../../../lambdas/app/apply-payment-webhook';
import { getSubscription } from '../../../lambdas/app/get-subscription';
import { subscribe, type SubscribeDeps } from '../../../lambdas/app/subscribe';
import type { SubscriptionDeps } from '../../../lambdas/app/steps/subscription-payments';
import { PaymentProviderUnavailable, PaymentRefused } from '../../../lambdas/ports/payments';
import {
  orderOfSale,
  type NewProviderSubscription,
  type ProviderSale,
  type ProviderSubscription,
  type RefusedSale,
  type SaleGrant,
  type Subscription,
  type SubscriptionProvider,
  type SubscriptionStore,
  type WatchedPlan,
} from '../../../lambdas/ports/subscriptions';
import { saleGrant } from '../../../lambdas/domain/money-rules';
import type { TestClock } from './clock';
import type { MemoryCredits } from './credits';
import { BUYER, paymentsSetup, type MemoryOrders } from './payments';

interface FakeSubscription extends ProviderSubscription {
  /** Cents left unpaid by failed cycles (collected by the next completed one, or on reactivation). */
  outstandingCents: number;
  /** A revision waiting for the buyer's approval. */
  revision?: string;
  /** Where PayPal sends the buyer back from its page (the latest revision's, once one was asked). */
  returnUrl: string;
  cancelUrl: string;
}

type FakeSale = ProviderSale & { subscriptionId: string };

const cents = (value: string) => Math.round(Number(value) * 100);
const dollars = (c: number) => (c / 100).toFixed(2);
const notFound = () => new PaymentRefused('The specified resource does not exist.', 404, 'RESOURCE_NOT_FOUND', 'INVALID_RESOURCE_ID');
const statusInvalid = () => new PaymentRefused('The operation is not allowed in the current state.', 422, 'UNPROCESSABLE_ENTITY', 'SUBSCRIPTION_STATUS_INVALID');

export class FakePaypalSubscriptions implements SubscriptionProvider {
  readonly products = new Map<string, string>();
  readonly plans = new Map<string, { requestId: string; plan: Plan }>();
  readonly subscriptions = new Map<string, FakeSubscription>();
  readonly sales: FakeSale[] = [];
  readonly cancelled: Array<{ id: string; reason: string }> = [];
  /** Refunds made through the API (refundSale), by PayPal-Request-Id. */
  readonly refunds = new Map<string, { id: string; saleId: string; amount: { currency: string; value: string } }>();
  /** Every call PayPal answered, by name. */
  readonly calls: string[] = [];
  down = false;
  /** PayPal's payment_failure_threshold of our plans. */
  failureThreshold = 3;

  constructor(private readonly clock: TestClock) {}

  private answer(call: string): void {
    if (this.down) throw new PaymentProviderUnavailable('down');
    this.calls.push(call);
  }

  private find(id: string): FakeSubscription {
    const s = this.subscriptions.get(id);
    if (!s) throw notFound();
    return s;
  }

  private priceOf(s: FakeSubscription): number {
    return this.plans.get(s.paypalPlanId)!.plan.cents;
  }

  private monthOn(from?: string): string {
    const d = new Date(from ?? this.clock.now());
    d.setUTCMonth(d.getUTCMonth() + 1);
    return d.toISOString();
  }

  private makeSale(s: FakeSubscription, c: number): FakeSale {
    // PayPal gives times to the second.
    const sale: FakeSale = { id: `SALE${String(this.sales.length + 1).padStart(13, '0')}`, status: 'COMPLETED', amount: { currency: 'USD', value: dollars(c) }, time: this.clock.now().toISOString().replace(/\.\d{3}Z$/, 'Z'), subscriptionId: s.id };
    this.sales.push(sale);
    return sale;
  }

  // ---- the API ----

  async createProduct(requestId: string) {
    this.answer('createProduct');
    if (!this.products.has(requestId)) this.products.set(requestId, `PROD-${this.products.size + 1}`);
    return this.products.get(requestId)!;
  }
  async createPlan(requestId: string, _productId: string, plan: Plan) {
    this.answer('createPlan');
    const known = [...this.plans].find(([, p]) => p.requestId === requestId);
    if (known) return known[0];
    const id = `P-${plan.id.toUpperCase()}-${this.plans.size + 1}`;
    this.plans.set(id, { requestId, plan });
    return id;
  }
  async createSubscription(n: NewProviderSubscription) {
    this.answer('createSubscription');
    if (!this.plans.has(n.paypalPlanId)) throw notFound();
    const id = `I-${String(this.subscriptions.size + 1).padStart(12, '0')}`;
    const s: FakeSubscription = {
      id,
      status: 'APPROVAL_PENDING',
      paypalPlanId: n.paypalPlanId,
      customId: n.customId,
      failedPayments: 0,
      approvalUrl: `https://paypal.test/webapps/billing/subscriptions?ba_token=BA-${id}`,
      outstandingCents: 0,
      returnUrl: n.returnUrl,
      cancelUrl: n.cancelUrl,
    };
    this.subscriptions.set(id, s);
    return this.view(s);
  }
  async getSubscription(id: string) {
    this.answer('getSubscription');
    return this.view(this.find(id));
  }
  async listSales(id: string, from: Date, to: Date) {
    this.answer('listSales');
    return this.sales
      .filter((s) => s.subscriptionId === id && Date.parse(s.time) >= from.getTime() && Date.parse(s.time) <= to.getTime())
      .map(({ subscriptionId: _s, ...sale }) => structuredClone(sale));
  }
  async getSale(id: string) {
    this.answer('getSale');
    const sale = this.sales.find((s) => s.id === id);
    if (!sale) throw notFound();
    return structuredClone(sale);
  }
  async cancel(id: string, reason: string) {
    this.answer('cancel');
    const s = this.find(id);
    if (s.status !== 'ACTIVE' && s.status !== 'SUSPENDED') throw statusInvalid();
    this.cancelled.push({ id, reason });
    this.cancelAtPaypal(id);
  }
  async revise(id: string, paypalPlanId: string, returnUrl: string, cancelUrl: string) {
    this.answer('revise');
    const s = this.find(id);
    if (!this.plans.has(paypalPlanId)) throw notFound();
    if (s.status !== 'ACTIVE' && s.status !== 'SUSPENDED') throw statusInvalid();
    Object.assign(s, { revision: paypalPlanId, returnUrl, cancelUrl });
    return { approvalUrl: `https://paypal.test/webapps/billing/subscriptions?ba_token=BA-REVISE-${id}` };
  }

  async refundSale(saleId: string, requestId: string) {
    this.answer('refundSale');
    const earlier = this.refunds.get(requestId);
    if (earlier) return { id: earlier.id, amount: earlier.amount };
    const sale = this.sales.find((s) => s.id === saleId);
    if (!sale) throw notFound();
    if (sale.status === 'REFUNDED') throw new PaymentRefused('The requested transaction has been refused: the sale is already refunded.', 400, 'TRANSACTION_REFUSED');
    const r = { ...this.refund(saleId), saleId };
    this.refunds.set(requestId, r);
    return { id: r.id, amount: r.amount };
  }

  private view(s: FakeSubscription): ProviderSubscription {
    const { outstandingCents: _o, revision: _r, returnUrl: _u, cancelUrl: _c, ...view } = s;
    return structuredClone(view);
  }

  // ---- PayPal's side: the buyer, and the simulator's dashboard ----

  /** The buyer agrees: active, and the first month is billed at once. */
  approve(id: string): FakeSale {
    const s = this.find(id);
    s.status = 'ACTIVE';
    delete s.approvalUrl;
    s.nextBillingAt = this.monthOn();
    return this.makeSale(s, this.priceOf(s));
  }
  /** The buyer agrees to a revision: the plan changes now, its price is billed from the next cycle. */
  approveRevision(id: string): void {
    const s = this.find(id);
    s.paypalPlanId = s.revision!;
    delete s.revision;
  }
  /** The next cycle, now: a sale of the price and what is outstanding, or a failure (suspended at the threshold). */
  bill(id: string, outcome: 'completed' | 'failed'): FakeSale | undefined {
    const s = this.find(id);
    if (s.status !== 'ACTIVE') throw new Error(`only an active subscription is billed; ${id} is ${s.status}`);
    if (outcome === 'completed') {
      const sale = this.makeSale(s, this.priceOf(s) + s.outstandingCents);
      Object.assign(s, { outstandingCents: 0, failedPayments: 0, nextBillingAt: this.monthOn(s.nextBillingAt) });
      delete s.nextRetryAt;
      return sale;
    }
    s.failedPayments++;
    s.outstandingCents += this.priceOf(s);
    if (s.failedPayments >= this.failureThreshold) {
      s.status = 'SUSPENDED';
      delete s.nextRetryAt;
    } else s.nextRetryAt = new Date(this.clock.now().getTime() + 5 * 24 * 3600 * 1000).toISOString();
    return undefined;
  }
  /** The buyer fixed their funding: what was outstanding is collected and the plan is active again. */
  reactivate(id: string): FakeSale | undefined {
    const s = this.find(id);
    s.status = 'ACTIVE';
    const sale = s.outstandingCents ? this.makeSale(s, s.outstandingCents) : undefined;
    Object.assign(s, { outstandingCents: 0, failedPayments: 0 });
    return sale;
  }
  /** The buyer cancels in their PayPal account (or our cancel landed). */
  cancelAtPaypal(id: string): void {
    const s = this.find(id);
    s.status = 'CANCELLED';
    delete s.nextBillingAt;
    delete s.nextRetryAt;
  }
  /** A refund of part or all of a sale, as PayPal's PAYMENT.SALE.REFUNDED names it. */
  refund(saleId: string, value?: string): { id: string; amount: { currency: string; value: string } } {
    const sale = this.sales.find((s) => s.id === saleId)!;
    const amount = { currency: 'USD', value: value ?? sale.amount.value };
    sale.status = value && cents(value) < cents(sale.amount.value) ? 'PARTIALLY_REFUNDED' : 'REFUNDED';
    return { id: `REF${saleId.slice(4)}`, amount };
  }
}

const ACTIVE: readonly string[] = ['active', 'suspended'];

export class MemorySubscriptions implements SubscriptionStore {
  readonly refs = new Map<string, { paypalId: string; planId?: string }>();
  readonly mine = new Map<string, Subscription>();
  readonly owners = new Map<string, string>();
  readonly refusals = new Map<string, { at: string; reason: RefusedSale['reason'] }>();
  readonly refusedSales = new Map<string, RefusedSale>();
  /** The reconciler's list (the adapter's gsi1 `PLAN_WATCH`), by subscription id. */
  readonly watched = new Map<string, WatchedPlan>();

  constructor(
    private readonly credits: MemoryCredits,
    private readonly orders: MemoryOrders,
  ) {}

  async paypalId(key: string) {
    return this.refs.get(key)?.paypalId;
  }
  async rememberPaypalId(key: string, paypalId: string, planId?: string) {
    this.refs.set(key, { paypalId, ...(planId ? { planId } : {}) });
    if (planId) this.refs.set(`paypal-plan:${paypalId}`, { paypalId, planId });
  }
  async planOfPaypal(paypalPlanId: string) {
    return this.refs.get(`paypal-plan:${paypalPlanId}`)?.planId;
  }
  async get(owner: string) {
    const s = this.mine.get(owner);
    return s && { ...s };
  }
  async balances(owner: string) {
    return this.credits.balances(owner);
  }
  async ownerOf(id: string) {
    return this.owners.get(id);
  }
  /** Like the adapter's transaction: refused while the owner's plan is active or suspended. */
  async start(s: Subscription) {
    const current = this.mine.get(s.owner);
    if ((current && ACTIVE.includes(current.status)) || this.owners.has(s.id)) return false;
    this.mine.set(s.owner, { ...s });
    this.owners.set(s.id, s.owner);
    this.watched.set(s.id, { id: s.id, owner: s.owner, createdAt: s.createdAt });
    return true;
  }
  /** Like the adapter: the owner's plan unless another bills, the account is gone or being deleted, or it was refused. */
  async adopt(s: Subscription) {
    const current = this.mine.get(s.owner);
    const account = this.credits.accounts.get(s.owner);
    if (!account || account.deleting || !this.owners.has(s.id) || this.refusals.has(s.id)) return false;
    if (current && current.id !== s.id && ACTIVE.includes(current.status)) return false;
    this.mine.set(s.owner, { ...s });
    return true;
  }
  async refuse(id: string, at: string, reason: RefusedSale['reason']) {
    if (!this.owners.has(id)) throw new Error(`no subscription ${id}`);
    if (!this.refusals.has(id)) this.refusals.set(id, { at, reason });
  }
  async refusal(id: string) {
    const r = this.refusals.get(id);
    return r && { ...r };
  }
  async isGranted(saleId: string) {
    return this.orders.orders.has(saleId);
  }
  async refusedSale(saleId: string) {
    const r = this.refusedSales.get(saleId);
    return r && structuredClone(r);
  }
  async recordRefusedSale(r: RefusedSale) {
    this.refusedSales.set(r.saleId, structuredClone(r));
  }
  /** Like the adapter: only while the owner's record is still this subscription; undefined removes a field. */
  async update(owner: string, id: string, fields: Parameters<SubscriptionStore['update']>[2]) {
    const s = this.mine.get(owner);
    if (s?.id !== id) return;
    for (const [k, v] of Object.entries(fields)) {
      if (v === undefined) delete (s as unknown as Record<string, unknown>)[k];
      else (s as unknown as Record<string, unknown>)[k] = v;
    }
  }
  /** Like the adapter's index: least recently read (or made) first. */
  async listWatched(limit: number, cursor?: string) {
    const key = (w: WatchedPlan) => `${w.checkedAt ?? w.createdAt}#${w.id}`;
    // The cursor is the last key read, as DynamoDB's: an item read again later (moved to the end) is met again.
    const all = [...this.watched.values()].sort((a, b) => key(a).localeCompare(key(b))).filter((w) => !cursor || key(w) > cursor);
    const page = all.slice(0, limit);
    return { items: page.map((w) => ({ ...w })), ...(all.length > limit ? { nextCursor: key(page.at(-1)!) } : {}) };
  }
  async markChecked(plan: WatchedPlan, at: string, endedAt?: string) {
    const w = this.watched.get(plan.id);
    if (!w) return;
    w.checkedAt = at;
    if (endedAt) w.endedAt ??= endedAt;
  }
  async stopWatching(plan: WatchedPlan) {
    this.watched.delete(plan.id);
  }
  /** Like the adapter: the sale stored as a captured order under its id (once), in the change of the credits. */
  async grant(g: SaleGrant) {
    const order = orderOfSale(g);
    const r = this.credits.change({
      sub: g.owner,
      ...saleGrant(g),
      ref: g.saleId,
      at: g.at,
      transition: { holds: () => !this.orders.orders.has(g.saleId) && !this.refusals.has(g.subscriptionId) && !this.refusedSales.has(g.saleId), apply: () => void this.orders.orders.set(g.saleId, order) },
    });
    if (r.ok) return { credited: true as const, balance: r.balance };
    if (r.why === 'already-done') return { credited: false as const };
    throw new Error(`Granting sale ${g.saleId} was refused: ${r.why}`);
  }
}

/**
 * The plan use cases' ports, in memory, beside the payment fakes (one table of credits and orders): the subscriber
 * `BUYER` has an account with 10 welcome credits, and every mail sent is kept.
 */
export function subscriptionsSetup() {
  const payments = paymentsSetup();
  const { credits, orders, clock } = payments;
  const paypal = new FakePaypalSubscriptions(clock);
  const subscriptions = new MemorySubscriptions(credits, orders);
  void credits.createWithWelcome({ ...BUYER, createdAt: clock.now().toISOString(), credits: 0 });
  credits.change({ sub: BUYER.sub, delta: 10, reason: 'welcome', ref: BUYER.sub, at: clock.now().toISOString() });
  const deps: SubscriptionDeps & SubscribeDeps & ApplyPaymentWebhookDeps = {
    ...payments.deps,
    subscriptions,
    subscriptionProvider: async () => paypal,
  };
  return { ...payments, subscriptionPaypal: paypal, subscriptions, deps };
}

export type SubscriptionsContext = ReturnType<typeof subscriptionsSetup>;

/**
 * BUYER subscribes to `planId`, approves at PayPal (the first month is billed) and comes back: the page asks for the
 * plan, which reads the pending plan at PayPal; the plan is active.
 */
export async function subscribed(ctx: SubscriptionsContext, planId: string): Promise<{ id: string; firstSale: ProviderSale }> {
  await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId });
  const id = (await ctx.subscriptions.get(BUYER.sub))!.id;
  const firstSale = ctx.subscriptionPaypal.approve(id);
  await getSubscription(ctx.deps, BUYER.sub);
  return { id, firstSale };
}
