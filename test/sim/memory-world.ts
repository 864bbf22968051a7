/**
 * The simulation's world on in-memory ports: the real use cases of lambdas/app on the fakes of test/support/fakes
 * (one MemoryCredits under jobs, orders and plans), PayPal and Replicate played by their fakes, and what the providers
 * would send as webhooks kept in an outbox the commands deliver in any order, more than once, or never.
 *
 * A crash is a kill -9 inside a use case: every port call counts, and the armed k-th call throws `Crash` (before its
 * effect, or after it landed and before its answer was used). What recovers it is what recovers it in the cloud: the
 * provider's retry of an unanswered webhook, the table stream's retry, the reconcilers.
 */
import { CREDIT_PACKS } from '../../contract/packs';
import { PLANS } from '../../contract/plans';
import { applyGenerationWebhook } from '../../lambdas/app/apply-generation-webhook';
import { applyPaymentWebhook } from '../../lambdas/app/apply-payment-webhook';
import { cancelJob } from '../../lambdas/app/cancel-job';
import { cancelPaymentReturn } from '../../lambdas/app/cancel-payment-return';
import { cancelSubscription } from '../../lambdas/app/cancel-subscription';
import { changeSubscription } from '../../lambdas/app/change-subscription';
import { checkJobStatus } from '../../lambdas/app/check-job-status';
import { createPayment } from '../../lambdas/app/create-payment';
import { deleteAccount } from '../../lambdas/app/delete-account';
import { getOrCreateAccount } from '../../lambdas/app/get-or-create-account';
import { getSubscription } from '../../lambdas/app/get-subscription';
import { DEFAULT_LIMITS, reconcileJobs } from '../../lambdas/app/reconcile-jobs';
import { reconcileOrders } from '../../lambdas/app/reconcile-orders';
import { reconcileSubscriptions } from '../../lambdas/app/reconcile-subscriptions';
import { saveJobOutput } from '../../lambdas/app/save-job-output';
import { settlePaymentReturn } from '../../lambdas/app/settle-payment-return';
import { startGeneration, type GenerationOrder } from '../../lambdas/app/start-generation';
import { subscribe } from '../../lambdas/app/subscribe';
import type { AccountData } from '../../lambdas/ports/account-data';
import { isTerminal, type Job } from '../../lambdas/ports/jobs';
import type { CreatePrediction } from '../../lambdas/ports/model-provider';
import type { Order, ProviderOrder } from '../../lambdas/ports/payments';
import type { WebhookDelivery } from '../../lambdas/ports/webhooks';
import type { Item } from '../support/invariants';
import { testClock } from '../support/fakes/clock';
import { MemoryContentCredentials } from '../support/fakes/content-credentials';
import { MemoryCredits } from '../support/fakes/credits';
import { fakeMediaTools, fakeVideo, png, WEBHOOK_URL } from '../support/fakes/generation';
import { MemoryJobs, MemoryMedia } from '../support/fakes/jobs';
import { MemoryMediaStore } from '../support/fakes/media-store';
import { MemoryMetrics } from '../support/fakes/metrics';
import { FakeModelProvider, fakeModelWebhooks, generationDelivery } from '../support/fakes/model-provider';
import { FakePaypal, MemoryOrders, paypalDelivery } from '../support/fakes/payments';
import { FakePaypalSubscriptions, MemorySubscriptions } from '../support/fakes/subscriptions';
import { MemoryInbox } from '../support/fakes/webhooks';
import { Crash, type CrashTarget, type Facts, type GenerationKind, type Hole, type Marker, type PackDecision, type World } from './world';

/** PayPal retries an unanswered webhook for 3 days (25 times); Replicate for a while. Then it is gone. */
const MAX_ATTEMPTS = 25;

interface Person {
  sub: string;
  email: string;
  deleted: boolean;
  /** Our orders (PayPal's ids) and the subscriptions whose approval page this person was shown, oldest first. */
  orders: string[];
  plans: string[];
  /** The plan our table held for this person when the account was deleted. */
  planAtDeletion?: string;
}

interface Outgoing {
  kind: 'replicate' | 'paypal';
  delivery: WebhookDelivery;
  attempts: number;
  /** When the provider sends it next (epoch ms): at once, then later after each attempt not answered 2xx. */
  dueAt: number;
}

/**
 * When a provider tries an unanswered webhook again: PayPal "tries to resend the notification message 25 times over the
 * course of three days"; a minute, doubling, at most 6 hours apart spreads 25 tries over about four days.
 */
const retryDelayMs = (attempts: number): number => Math.min(60_000 * 2 ** (attempts - 1), 6 * 3_600_000);

/** Counts every port call of the use case running now, and throws Crash at the armed one. */
class CrashSwitch {
  armed?: { at: number; after: boolean; target: CrashTarget };
  active = false;
  /** The process is dead: nothing after the crash runs (no catch's clean-up reaches a port either). */
  private dead = false;
  private count = 0;

  begin(active: boolean): void {
    this.count = 0;
    this.active = active;
    this.dead = false;
  }

  async around<T>(name: string, call: () => Promise<T>): Promise<T> {
    if (this.dead) throw new Crash(`${name}, after the process died`);
    if (!this.active || !this.armed) return call();
    this.count++;
    if (this.count !== this.armed.at) return call();
    const { after } = this.armed;
    this.armed = undefined;
    this.dead = true;
    if (!after) throw new Crash(`${name}, before it`);
    await call();
    throw new Crash(`${name}, after it landed`);
  }
}

/** A port whose every method call goes through the crash switch (its own calls inside stay uncounted). */
function crashable<T extends object>(target: T, name: string, sw: CrashSwitch): T {
  return new Proxy(target, {
    get(t, prop) {
      const v = Reflect.get(t, prop, t) as unknown;
      if (typeof v !== 'function') return v;
      return (...args: unknown[]) => sw.around(`${name}.${String(prop)}`, () => Promise.resolve((v as (...a: unknown[]) => unknown).apply(t, args)));
    },
  });
}

/** PayPal's Orders v2 with the funding each buyer picked on the approval page (per order). */
class SimPaypal extends FakePaypal {
  readonly funding = new Map<string, FakePaypal['captureAs']>();
  override async captureOrder(id: string) {
    this.captureAs = this.funding.get(id) ?? 'COMPLETED';
    return super.captureOrder(id);
  }
}

/** Replicate, answering each create as the prompt's fault marker says (the simulator's markers). */
class SimProvider extends FakeModelProvider {
  override async create(req: CreatePrediction) {
    const prompt = String(req.input.prompt ?? '');
    this.next = prompt.includes('[reject]') ? 'refuse' : prompt.includes('[busy]') ? 'busy' : prompt.includes('[down]') ? 'lose-answer' : 'accept';
    return super.create(req);
  }
}

let pngBytes: Buffer | undefined;

export class MemoryWorld implements World {
  readonly backend = 'memory' as const;
  steps = 0;
  readonly clock = testClock('2026-03-01T10:00:00.000Z');
  readonly credits = new MemoryCredits(10);
  readonly media = new MemoryMedia();
  readonly jobs = new MemoryJobs(this.credits, this.media, this.clock.now);
  readonly store = new MemoryMediaStore();
  readonly provider = new SimProvider(this.clock.now);
  readonly inbox = new MemoryInbox();
  readonly paypal = new SimPaypal();
  readonly orders = new MemoryOrders(this.credits);
  readonly plansAtPaypal = new FakePaypalSubscriptions(this.clock);
  readonly subscriptions = new MemorySubscriptions(this.credits, this.orders);
  readonly people: Person[] = [];
  readonly outbox: Outgoing[] = [];
  /** Packs and sales PayPal gave back in full (refund or reversal). */
  readonly returned = new Set<string>();
  private readonly sw = new CrashSwitch();
  private events = 0;
  /** What PayPal and Replicate were last seen to say, to send a webhook for each change (as they do). */
  private readonly seen = new Map<string, string>();

  private readonly gen;
  private readonly pay;
  private readonly del;

  constructor(readonly holes: ReadonlySet<Hole>) {
    const c = <T extends object>(t: T, name: string) => crashable(t, name, this.sw);
    const log = () => undefined;
    const mailer = { send: async () => undefined };
    const accounts = c(this.credits, 'accounts');
    const jobs = c(this.jobs, 'jobs');
    const provider = c(this.provider, 'replicate');
    const credentials = new MemoryContentCredentials();
    this.gen = {
      accounts,
      jobs,
      media: c(this.media, 'media'),
      store: c(this.store, 'bucket'),
      status: jobs,
      provider: async () => provider,
      webhookUrl: WEBHOOK_URL,
      webhooks: async () => fakeModelWebhooks(),
      inbox: c(this.inbox, 'inbox'),
      tools: async () => fakeMediaTools,
      credentials: async () => credentials,
      limits: DEFAULT_LIMITS,
      metrics: new MemoryMetrics(),
      now: this.clock.now,
      log,
    };
    const paypal = c(this.paypal, 'paypal');
    const plans = c(this.plansAtPaypal, 'paypal-plans');
    this.pay = {
      accounts,
      orders: c(this.orders, 'orders'),
      provider: async () => paypal,
      appUrl: 'https://app.example.com/',
      now: this.clock.now,
      newRequestId: () => `req-${this.events++}`,
      log,
      mailer,
      webhooks: async () => this.paypal.webhooks(),
      subscriptions: c(this.subscriptions, 'subscriptions'),
      subscriptionProvider: async () => plans,
      inbox: c(this.inbox, 'inbox'),
    };
    this.del = {
      data: c(this.accountData(), 'account-data'),
      store: c(this.store, 'bucket'),
      users: { deleteUser: async () => undefined },
      now: this.clock.now,
      subscriptions: c(this.subscriptions, 'subscriptions'),
      subscriptionProvider: async () => plans,
      log,
    };
  }

  /** The account data port over the fakes, as dynamodb-account-data: the orders stay, without their owner. */
  private accountData(): AccountData {
    return {
      collect: async (sub) => ({
        userItems: [...(this.credits.accounts.has(sub) ? ['ACCOUNT'] : []), ...this.credits.rowsOf(sub).map((l) => `LEDGER#${l.id}`)],
        jobIds: [...this.jobs.jobs.values()].filter((j) => j.owner === sub).map((j) => j.id),
        orderIds: [...this.orders.orders.values()].filter((o) => o.owner === sub).map((o) => o.id),
        shareTokens: [],
        connectionIds: [],
      }),
      countOpenJobs: async (ids) => ids.filter((id) => this.jobs.jobs.has(id) && !isTerminal(this.jobs.jobs.get(id)!.status)).length,
      markDeleting: async (sub) => {
        if (this.credits.activeJobs(sub) > 0) return false;
        if (!this.credits.accounts.has(sub)) this.credits.seed(sub, 0);
        this.credits.accounts.get(sub)!.deleting = true;
        return true;
      },
      erase: async (sub, data) => {
        for (const id of data.jobIds) this.jobs.jobs.delete(id);
        for (const m of [...this.media.items.values()].filter((i) => i.owner === sub)) this.media.items.delete(m.id);
        for (const id of data.orderIds) delete (this.orders.orders.get(id) as Partial<Order> | undefined)?.owner;
        this.credits.ledger.splice(0, this.credits.ledger.length, ...this.credits.ledger.filter((l) => l.owner !== sub));
        this.credits.accounts.delete(sub);
        this.subscriptions.mine.delete(sub);
        this.credits.tombstones.add(sub);
      },
    };
  }

  // ---- running a use case ----

  /**
   * Runs one use case as one invocation: a crash armed by the last step fires inside it (a kill -9 at its k-th port
   * call), except where a closed hole says the code cannot survive it yet. What the caller saw (an error, a crash) is
   * what a caller sees; the checks after the step judge the money.
   */
  private async call(what: CrashTarget, run: () => Promise<unknown>): Promise<'ok' | 'error' | 'crash'> {
    const crashHere = this.sw.armed?.target === what;
    this.sw.begin(crashHere);
    try {
      await run();
      return 'ok';
    } catch (err) {
      return err instanceof Crash ? 'crash' : 'error';
    } finally {
      if (crashHere) this.sw.armed = undefined;
      this.sw.begin(false);
      this.observeProviders();
    }
  }

  private nth<T>(list: readonly T[], i: number): T | undefined {
    return list.length ? list[i % list.length] : undefined;
  }

  private living(who: number): Person | undefined {
    return this.nth(this.people.filter((p) => !p.deleted), who);
  }

  private caller(p: Person) {
    return { sub: p.sub, email: p.email, firstName: 'Sim', lastName: 'Person' };
  }

  // ---- people ----

  async signUp(): Promise<void> {
    const n = this.people.length + 1;
    const p: Person = { sub: `sim-${String(n).padStart(4, '0')}`, email: `sim-${n}@example.com`, deleted: false, orders: [], plans: [] };
    this.people.push(p);
    await this.call('user', () => getOrCreateAccount(this.gen, this.caller(p)));
  }

  async deleteAccount(who: number): Promise<void> {
    const p = this.living(who);
    if (!p) return;
    // With a plan billing or not: DELETE /api/me cancels it at PayPal first (issue 36).
    const me = { sub: p.sub, username: p.sub, authTime: Math.floor(this.clock.now().getTime() / 1000) - 60 };
    const plan = this.subscriptions.mine.get(p.sub)?.id;
    await this.call('user', () => deleteAccount(this.del, me));
    p.deleted = this.credits.tombstones.has(p.sub) && !this.credits.accounts.has(p.sub);
    if (p.deleted && plan) p.planAtDeletion = plan;
  }

  // ---- packs ----

  async buyPack(who: number, pack: number, decision: PackDecision): Promise<void> {
    const p = this.living(who);
    if (!p) return;
    const chosen = this.nth(CREDIT_PACKS, pack)!;
    let orderId: string | undefined;
    await this.call('user', async () => {
      orderId = (await createPayment(this.pay, this.caller(p), { withdrawalConsent: true, amount: chosen.amount, credits: chosen.credits })).orderId;
    });
    if (!orderId) return;
    p.orders.push(orderId);
    if (decision === 'abandon') return;
    if (decision === 'cancel') {
      await this.call('user', () => cancelPaymentReturn(this.pay, orderId!));
      return;
    }
    const funding = { approve: 'COMPLETED', pending: 'PENDING', decline: 'DECLINED', 'instrument-declined': 'INSTRUMENT_DECLINED' } as const;
    this.paypal.funding.set(orderId, funding[decision]);
    this.paypal.approve(orderId);
    this.observeProviders();
  }

  /** The buyer's browser comes back from PayPal's approval page (it may never, or after the webhooks). */
  async comeBack(which: number): Promise<void> {
    const id = this.nth(this.approvedOrders(), which);
    if (id) await this.call('user', () => settlePaymentReturn(this.pay, id));
  }

  private approvedOrders(): string[] {
    return [...this.paypal.orders.values()].filter((o) => o.status !== 'PAYER_ACTION_REQUIRED').map((o) => o.id);
  }

  async afterPurchase(which: number, action: 'refund' | 'reverse' | 'dispute' | 'complete-pending' | 'deny-pending'): Promise<void> {
    const captured = [...this.paypal.orders.values()].filter((o) => o.captures[0]);
    const o = this.nth(captured, which);
    if (!o) return;
    const capture = o.captures[0]!;
    if (action === 'complete-pending' || action === 'deny-pending') {
      if (capture.status !== 'PENDING') return;
      capture.status = action === 'complete-pending' ? 'COMPLETED' : 'DECLINED';
      this.observeProviders();
      return;
    }
    if (capture.status !== 'COMPLETED') return;
    if (action === 'dispute') {
      this.send('paypal', { event_type: 'CUSTOMER.DISPUTE.CREATED', resource: { disputed_transactions: [{ seller_transaction_id: capture.id }] } });
      return;
    }
    if (this.returned.has(o.id)) return;
    this.returned.add(o.id);
    this.send('paypal', {
      event_type: action === 'refund' ? 'PAYMENT.CAPTURE.REFUNDED' : 'PAYMENT.CAPTURE.REVERSED',
      resource: { id: `R-${capture.id}`, status: 'COMPLETED', amount: { currency_code: 'USD', value: o.amount?.value ?? '0.00' }, links: [{ rel: 'up', method: 'GET', href: `https://api.paypal.test/v2/payments/captures/${capture.id}` }] },
    });
  }

  // ---- plans ----

  private billingPlanOf(p: Person): string | undefined {
    return p.plans.find((id) => ['ACTIVE', 'SUSPENDED'].includes(this.plansAtPaypal.subscriptions.get(id)?.status ?? ''));
  }

  async subscribe(who: number, plan: number): Promise<void> {
    const p = this.living(who);
    if (!p) return;
    const r = await this.call('user', () => subscribe(this.pay, this.caller(p), { withdrawalConsent: true, planId: this.nth(PLANS, plan)!.id }));
    const mine = this.subscriptions.mine.get(p.sub);
    if (r === 'ok' && mine && !p.plans.includes(mine.id)) p.plans.push(mine.id);
  }

  async approvePlan(who: number, page: 'latest' | 'earlier'): Promise<void> {
    const p = this.living(who);
    if (!p) return;
    const pending = p.plans.filter((id) => this.plansAtPaypal.subscriptions.get(id)?.status === 'APPROVAL_PENDING');
    const latest = p.plans[p.plans.length - 1];
    const id = page === 'latest' ? (pending.includes(latest!) ? latest : undefined) : pending.find((i) => i !== latest);
    if (!id) return;
    // Any page, the earlier one of two tabs too: the first PayPal activates is the plan, a second is refused (issue 36).
    this.plansAtPaypal.approve(id);
    this.observeProviders();
    // Back from PayPal, the buyer's page asks GET /api/subscription (the public return itself does nothing).
    await this.call('user', () => getSubscription(this.pay, p.sub));
  }

  async atPaypal(who: number, action: 'bill' | 'fail' | 'suspend' | 'reactivate' | 'cancel'): Promise<void> {
    const p = this.nth(this.people, who);
    const id = p && this.billingPlanOf(p);
    if (!id) return;
    const s = this.plansAtPaypal.subscriptions.get(id)!;
    if (action === 'bill' || action === 'fail') {
      if (s.status === 'ACTIVE') this.plansAtPaypal.bill(id, action === 'bill' ? 'completed' : 'failed');
    } else if (action === 'suspend') s.status = 'SUSPENDED';
    else if (action === 'reactivate') {
      if (s.status === 'SUSPENDED') this.plansAtPaypal.reactivate(id);
    } else this.plansAtPaypal.cancelAtPaypal(id);
    this.observeProviders();
  }

  async changePlan(who: number, plan: number, approve: boolean): Promise<void> {
    const p = this.living(who);
    if (!p) return;
    const r = await this.call('user', () => changeSubscription(this.pay, p.sub, { planId: this.nth(PLANS, plan)!.id }));
    const id = this.subscriptions.mine.get(p.sub)?.id;
    const s = id ? this.plansAtPaypal.subscriptions.get(id) : undefined;
    if (r === 'ok' && approve && id && s?.revision) {
      this.plansAtPaypal.approveRevision(id);
      this.observeProviders();
      await this.call('user', () => getSubscription(this.pay, p.sub));
    }
  }

  async cancelPlan(who: number): Promise<void> {
    const p = this.living(who);
    if (p) await this.call('user', () => cancelSubscription(this.pay, p.sub));
  }

  async refundSale(which: number, reverse: boolean): Promise<void> {
    const sale = this.nth(this.plansAtPaypal.sales.filter((s) => s.status === 'COMPLETED'), which);
    if (!sale) return;
    const refund = this.plansAtPaypal.refund(sale.id);
    this.returned.add(sale.id);
    this.send('paypal', {
      event_type: reverse ? 'PAYMENT.SALE.REVERSED' : 'PAYMENT.SALE.REFUNDED',
      resource: { id: refund.id, state: 'completed', amount: { total: `-${refund.amount.value}`, currency: 'USD' }, sale_id: sale.id, billing_agreement_id: sale.subscriptionId },
    });
  }

  // ---- generations ----

  async generate(who: number, kind: GenerationKind, marker: Marker, source: number): Promise<void> {
    const p = this.living(who);
    if (!p) return;
    const prompt = `a lighthouse at dusk ${marker}`.trim();
    const results = [...this.media.items.values()].filter((m) => m.owner === p.sub && m.type === 'image');
    const from = this.nth(results, source);
    const orders: Record<GenerationKind, GenerationOrder | undefined> = {
      image: { model: 'flux-fast', prompt },
      batch: { model: 'sdxl', prompt, options: { count: 2 + (source % 3) } },
      video: { model: 'pixverse', prompt, options: { duration: 5, quality: '540p' } },
      clip10: { model: 'wan', prompt, options: { duration: 10 } },
      edit: from && { model: 'edit', prompt, inputs: { image: { mediaId: from.id } } },
      upscale: from && { model: 'upscale', inputs: { image: { mediaId: from.id } } },
    };
    const order = orders[kind];
    if (order) await this.call('user', () => startGeneration(this.gen, this.caller(p), order));
  }

  /** Replicate moves one open prediction to its end, as its fault marker says (or as `outcome` says without one). */
  async progress(which: number, outcome: 'succeed' | 'fail' | 'cancel'): Promise<void> {
    const p = this.nth(this.runningPredictions(), which);
    if (p) await this.finish(p.id, outcome);
  }

  private runningPredictions() {
    return [...this.provider.predictions.values()].filter((p) => !['succeeded', 'failed', 'canceled', 'aborted'].includes(p.status));
  }

  private async finish(id: string, outcome: 'succeed' | 'fail' | 'cancel'): Promise<void> {
    const p = this.provider.predictions.get(id)!;
    const prompt = String(p.request.input.prompt ?? '');
    if (prompt.includes('[stuck]')) return;
    const fails = prompt.includes('[fail]') || (prompt.includes('[fail-from-image]') && p.request.input.image !== undefined);
    if (fails || outcome === 'fail') this.provider.update(p.id, { status: 'failed', error: 'CUDA out of memory' });
    else if (prompt.includes('[abort]') || outcome === 'cancel') this.provider.update(p.id, { status: prompt.includes('[abort]') ? 'aborted' : 'canceled' });
    else {
      const url = `https://replicate.delivery/${p.id}/out.${p.request.model.includes('wan') || p.request.model.includes('pixverse') ? 'mp4' : 'png'}`;
      if (!prompt.includes('[lost]')) this.store.outputs.set(url, prompt.includes('[garbage]') ? Buffer.from('<html>502</html>') : await this.outputFor(p.request));
      this.provider.update(p.id, { status: 'succeeded', output: [url] });
    }
    this.observeProviders();
  }

  private async outputFor(req: CreatePrediction): Promise<Buffer> {
    if (req.model.includes('wan')) return fakeVideo({ durationSeconds: 81 / 16, width: 832, height: 480, fps: 16, frames: 81 });
    if (req.model.includes('pixverse')) return fakeVideo({ durationSeconds: 5, width: 960, height: 540, fps: 24, frames: 120 });
    return (pngBytes ??= await png(16, 16));
  }

  async cancelJob(who: number, which: number, acceptCharge: boolean): Promise<void> {
    const p = this.living(who);
    const job = p && this.nth(this.openJobs().filter((j) => j.owner === p.sub), which);
    if (job) await this.call('user', () => cancelJob(this.gen, job.owner, job.id, acceptCharge));
  }

  async checkStatus(which: number): Promise<void> {
    const job = this.nth(this.openJobs(), which);
    if (!job) return;
    this.clock.advance(5_000);
    await this.call('user', () => checkJobStatus(this.gen, job.owner, job.id));
  }

  private openJobs(): Job[] {
    return [...this.jobs.jobs.values()].filter((j) => !isTerminal(j.status));
  }

  // ---- webhooks, the stream, crashes and the reconcilers ----

  /** Queues what a provider sends: PayPal's events get an id each (`WH-n`); Replicate's its webhook-id. */
  private send(kind: 'paypal', event: Record<string, unknown>): void;
  private send(kind: 'replicate', delivery: WebhookDelivery): void;
  private send(kind: 'paypal' | 'replicate', what: Record<string, unknown> | WebhookDelivery): void {
    const delivery = kind === 'paypal' ? paypalDelivery({ id: `WH-${String(++this.events).padStart(6, '0')}`, ...what }) : (what as WebhookDelivery);
    this.outbox.push({ kind, delivery, attempts: 0, dueAt: this.clock.now().getTime() });
  }

  /** A webhook for each change PayPal or Replicate made since last seen (status changes, captures, sales). */
  private observeProviders(): void {
    const changed = (key: string, value: string) => {
      if (this.seen.get(key) === value) return false;
      this.seen.set(key, value);
      return true;
    };
    for (const o of this.paypal.orders.values()) {
      if (changed(`order:${o.id}`, o.status) && o.status === 'APPROVED') this.send('paypal', { event_type: 'CHECKOUT.ORDER.APPROVED', resource: { id: o.id, status: 'APPROVED' } });
      const cap = o.captures[0];
      if (cap && changed(`capture:${cap.id}`, cap.status)) {
        const type = { COMPLETED: 'PAYMENT.CAPTURE.COMPLETED', PENDING: 'PAYMENT.CAPTURE.PENDING', DECLINED: 'PAYMENT.CAPTURE.DECLINED' }[cap.status as 'COMPLETED'] ?? 'PAYMENT.CAPTURE.DENIED';
        this.send('paypal', { event_type: type, resource: { id: cap.id, status: cap.status, supplementary_data: { related_ids: { order_id: o.id } } } });
      }
    }
    for (const s of this.plansAtPaypal.subscriptions.values()) {
      if (changed(`plan:${s.id}`, s.status) && s.status !== 'APPROVAL_PENDING') this.send('paypal', { event_type: `BILLING.SUBSCRIPTION.${s.status === 'ACTIVE' ? 'ACTIVATED' : s.status}`, resource: { id: s.id } });
      const revised = this.seen.has(`plan-of:${s.id}`);
      if (changed(`plan-of:${s.id}`, s.paypalPlanId) && revised) this.send('paypal', { event_type: 'BILLING.SUBSCRIPTION.UPDATED', resource: { id: s.id } });
      if (changed(`failures:${s.id}`, String(s.failedPayments)) && s.failedPayments > 0) this.send('paypal', { event_type: 'BILLING.SUBSCRIPTION.PAYMENT.FAILED', resource: { id: s.id } });
    }
    for (const sale of this.plansAtPaypal.sales) {
      if (changed(`sale:${sale.id}`, 'seen')) {
        this.send('paypal', {
          event_type: 'PAYMENT.SALE.COMPLETED',
          resource: { id: sale.id, state: 'completed', amount: { total: sale.amount.value, currency: sale.amount.currency }, billing_agreement_id: sale.subscriptionId, create_time: sale.time },
        });
      }
    }
    for (const p of this.provider.predictions.values()) {
      if (!changed(`prediction:${p.id}`, p.status) || !['succeeded', 'failed', 'canceled', 'aborted'].includes(p.status)) continue;
      const prompt = String(p.request.input.prompt ?? '');
      if (prompt.includes('[nowebhook]')) continue;
      const url = new URL(p.request.webhookUrl);
      const part = url.searchParams.get('part');
      const delivery = generationDelivery(`msg_${p.id}`, url.searchParams.get('job') ?? undefined, { id: p.id, status: p.status, output: [...p.output], ...(p.error ? { error: p.error } : {}) }, true, part === null ? undefined : Number(part));
      for (let k = prompt.includes('[dup]') ? 3 : 1; k > 0; k--) this.send('replicate', delivery);
    }
  }

  /** Delivers the `which`-th waiting webhook (any order); `keep` delivers it and keeps it waiting (a redelivery follows). */
  async deliverWebhook(which: number, keep: boolean): Promise<void> {
    const out = this.nth(this.due(), which);
    if (!out) return;
    const r = await this.call(out.kind === 'paypal' ? 'paypal-webhook' : 'replicate-webhook', () =>
      out.kind === 'paypal' ? applyPaymentWebhook(this.pay, out.delivery) : applyGenerationWebhook(this.gen, out.delivery),
    );
    out.attempts++;
    // Answered 2xx: the provider stops (unless this is one of its duplicate sends). Otherwise it retries, for a while.
    if ((r === 'ok' && !keep) || out.attempts >= MAX_ATTEMPTS) this.outbox.splice(this.outbox.indexOf(out), 1);
    else if (r !== 'ok') out.dueAt = this.clock.now().getTime() + retryDelayMs(out.attempts);
  }

  /** The webhooks the providers send now (a retry waits for its time). */
  private due(): Outgoing[] {
    const now = this.clock.now().getTime();
    return this.outbox.filter((o) => o.dueAt <= now);
  }

  /** The table's stream: save-job-output for every open job whose output was recorded (retried until it settles). */
  async stream(): Promise<void> {
    for (const job of this.openJobs().filter((j) => j.outputUrl)) await this.call('background', () => saveJobOutput(this.gen, job.id));
  }

  async crash(k: number, after: boolean, target: CrashTarget): Promise<void> {
    this.sw.armed = { at: k, after, target };
  }

  async reconcile(): Promise<void> {
    await this.call('background', () => reconcileJobs(this.gen));
    await this.call('background', () => reconcileOrders(this.pay));
    await this.call('background', () => reconcileSubscriptions(this.pay));
  }

  async drain(): Promise<void> {
    this.sw.armed = undefined;
    for (let round = 0; round < 12; round++) {
      for (const p of this.runningPredictions()) await this.finish(p.id, 'succeed');
      // Every webhook as the provider sends it: its retries at their times (the clock moves on to the next one).
      while (this.outbox.length) {
        if (!this.due().length) this.clock.advance(Math.min(...this.outbox.map((o) => o.dueAt)) - this.clock.now().getTime());
        await this.deliverWebhook(0, false);
      }
      await this.stream();
      this.clock.advance(20 * 60_000);
      await this.reconcile();
      await this.stream();
      if (!this.outbox.length && !this.openJobs().length && round > 0) break;
    }
  }

  // ---- what the checks read ----

  async snapshot(): Promise<{ items: Item[]; facts: Facts }> {
    const items: Item[] = [];
    for (const [sub, a] of this.credits.accounts) items.push({ pk: `USER#${sub}`, sk: 'ACCOUNT', credits: a.credits, planCredits: a.planCredits, activeJobs: a.activeJobs });
    for (const l of this.credits.ledger) items.push({ pk: `USER#${l.owner}`, sk: `LEDGER#${l.id}`, type: 'ledger', delta: l.delta, plan: l.plan ?? 0, reason: l.reason, ref: l.ref });
    for (const j of this.jobs.jobs.values()) {
      items.push({ pk: `JOB#${j.id}`, sk: 'JOB', owner: j.owner, status: j.status, refunded: j.refunded, countsActive: j.countsActive, cost: j.cost, ...(j.batch ? { batch: j.batch } : {}), ...(isTerminal(j.status) ? {} : { openpk: 'OPEN_JOB#0' }) });
    }
    const ownerOfPlan = (id: string) => this.plansAtPaypal.subscriptions.get(id)?.customId ?? '';
    const paid: Facts['paid'] = [];
    for (const o of this.paypal.orders.values() as Iterable<ProviderOrder>) {
      if (o.captures[0]?.status === 'COMPLETED') paid.push({ kind: 'pack', ref: o.id, owner: o.customId ?? '', credits: this.orders.orders.get(o.id)?.credits, returned: this.returned.has(o.id) });
    }
    for (const s of this.plansAtPaypal.sales) paid.push({ kind: 'sale', ref: s.id, owner: ownerOfPlan(s.subscriptionId), returned: this.returned.has(s.id) || s.status === 'REFUNDED' });
    const billing = [...this.plansAtPaypal.subscriptions.values()].filter((s) => s.status === 'ACTIVE' || s.status === 'SUSPENDED').map((s) => ({ owner: s.customId ?? '', id: s.id }));
    return { items, facts: { people: this.people.map((p) => ({ sub: p.sub, deleted: p.deleted, ...(p.planAtDeletion ? { planAtDeletion: p.planAtDeletion } : {}) })), paid, billing } };
  }

  async close(): Promise<void> {}
}
