/**
 * The simulation's world on the embedded stack: people sign up in cognito-local and call the HTTP API with their ID
 * tokens, PayPal's approval pages and dashboard are the PayPal simulator's, generations run on the Replicate simulator
 * with its fault markers, and the simulators send their webhooks themselves (their own order, `[dup]`'s five copies;
 * a `deliverWebhook` step asks PayPal to resend an event already handled, late). A crash is a kill -9 of the whole stack
 * (the node process; DynamoDB Local's JVM is left as a kill leaves it) after a random short delay, so it lands in the
 * middle of whatever the stack and its simulators are doing, then a restart on the same data and port.
 *
 * The stack is this process's own (`startOwnStack`), not jest's shared one: a kill -9 must not hit other files, and
 * the checks scan the whole table.
 */
import fs from 'node:fs';
import { CREDIT_PACKS } from '../../contract/packs';
import { PLANS } from '../../contract/plans';
import { scanAll, type Item } from '../support/invariants';
import { backdateJob, drainStreams } from '../support/jobs';
import { decideAtPaypal, paypalApi, refundAtPaypal, simulatorAction, startPayment, visit } from '../support/payments';
import { exposeStackEnv, restartablePort, startStackProcess, stopStackProcess, type RunningStack } from '../support/start-stack';
import { atPaypal as simulatorPlanAction, decideSubscription, startSubscription } from '../support/subscriptions';
import { api, createAccount, signIn, stackUrl, type TestUser } from '../support/users';
import { moneyProblems } from './money-model';
import type { Facts, GenerationKind, Hole, Marker, PackDecision, World } from './world';

/** The simulators fast, the reconcilers only when asked (as jest's global setup has them). */
const EXTRA_ENV = {
  FW_EDGE_RATE_LIMITS: 'off',
  FW_API_THROTTLE: 'off',
  FW_LAMBDA_CONCURRENCY: 'off',
  SIM_IMAGE_MS: '300',
  SIM_VIDEO_MS: '1000',
  REPLICATE_TIMEOUT_MS: '3000',
  RECONCILE_INTERVAL_MS: '3600000',
  RECONCILE_ASK_AFTER_TYPICAL: 'false',
};

/** kill -9s per sequence: a restart takes seconds, so a sequence of a few dozen steps has at most this many. */
const KILLS_PER_SEQUENCE = 1;

let stack: RunningStack | undefined;
let port = 0;

/** Starts this process's own stack and points the test helpers at it; answers the function that stops it. */
export async function startOwnStack(): Promise<() => Promise<void>> {
  // The stack takes ports next to its own; on a machine running other stacks one of those may be taken: another port.
  for (let attempt = 1; !stack; attempt++) {
    port = await restartablePort();
    stack = await startStackProcess({ web: 'none', extraEnv: EXTRA_ENV, port, readyWithinMs: 240_000 }).catch((err: Error) => {
      if (attempt >= 3 || !/EADDRINUSE/.test(err.message)) throw err;
      return undefined;
    });
  }
  exposeStackEnv(stack);
  return async () => {
    if (stack) await stopStackProcess(stack.child.pid!, stack.dataDir);
    stack = undefined;
  };
}

const childrenOf = (pid: number): number[] => {
  try {
    return fs.readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim().split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
};

/** kill -9 of the stack's node processes (as test/local/stack-kill.test.ts does), then the stack again on its data. */
async function killAndRestart(): Promise<void> {
  const s = stack!;
  const gone = new Promise((r) => s.child.once('exit', r));
  for (const pid of childrenOf(s.child.pid!)) {
    if (!fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('DynamoDBLocal')) process.kill(pid, 'SIGKILL');
  }
  s.child.kill('SIGKILL');
  await gone;
  stack = await startStackProcess({ web: 'none', extraEnv: EXTRA_ENV, port, dataDir: s.dataDir, readyWithinMs: 240_000 });
  exposeStackEnv(stack);
}

interface Person {
  user: TestUser;
  deleted: boolean;
  /** Our orders; `capture` once PayPal's capture reached a status nothing moves on from (read no more). */
  orders: Array<{ id: string; credits: number; capture?: string; never?: true }>;
  /** Where PayPal sent the browser after the approval page (our return), not visited yet. */
  returns: string[];
  /** Approval pages of subscriptions, oldest first, and the subscription ids seen. */
  pages: string[];
  plans: Set<string>;
  jobs: string[];
  /** The plan our table held for this person when the account was deleted. */
  planAtDeletion?: string;
}

const json = async <T = Record<string, unknown>>(res: Response): Promise<T> => (await res.json().catch(() => ({}))) as T;

export class StackWorld implements World {
  readonly backend = 'stack' as const;
  steps = 0;
  private readonly people: Person[] = [];
  private readonly returned = new Set<string>();
  private kills = 0;

  constructor(readonly holes: ReadonlySet<Hole>) {}

  private nth<T>(list: readonly T[], i: number): T | undefined {
    return list.length ? list[i % list.length] : undefined;
  }

  private living(who: number): Person | undefined {
    return this.nth(this.people.filter((p) => !p.deleted), who);
  }

  async signUp(): Promise<void> {
    this.people.push({ user: await createAccount(), deleted: false, orders: [], returns: [], pages: [], plans: new Set(), jobs: [] });
  }

  async deleteAccount(who: number): Promise<void> {
    const p = this.living(who);
    if (!p) return;
    // A sign-in of the last five minutes, as the Delete Account page asks for the password again.
    p.user = await signIn(p.user.email, p.user.password);
    const plan = (await json<{ id?: string }>(await api(p.user, '/api/subscription'))).id;
    const res = await api(p.user, '/api/me', { method: 'DELETE' });
    await res.arrayBuffer();
    if (res.status === 204) p.deleted = true;
    if (p.deleted && plan) p.planAtDeletion = plan;
  }

  async buyPack(who: number, pack: number, decision: PackDecision): Promise<void> {
    const p = this.living(who);
    if (!p) return;
    const chosen = this.nth(CREDIT_PACKS, pack)!;
    const { paymentUrl, orderId } = await startPayment(p.user, chosen).catch(() => ({ paymentUrl: '', orderId: '' }));
    if (!orderId) return;
    p.orders.push({ id: orderId, credits: chosen.credits, ...(decision === 'abandon' || decision === 'cancel' ? { never: true as const } : {}) });
    if (decision === 'abandon') return;
    if (decision === 'cancel') {
      await visit(await decideAtPaypal(paymentUrl, 'cancel'));
      return;
    }
    const funding = { approve: 'COMPLETED', pending: 'PENDING', decline: 'DECLINED', 'instrument-declined': 'INSTRUMENT_DECLINED' } as const;
    p.returns.push(await decideAtPaypal(paymentUrl, 'approve', funding[decision]));
  }

  async comeBack(which: number): Promise<void> {
    const all = this.people.flatMap((p) => p.returns.map((r) => ({ p, r })));
    const pick = this.nth(all, which);
    if (!pick) return;
    pick.p.returns.splice(pick.p.returns.indexOf(pick.r), 1);
    await visit(pick.r);
  }

  private async captureOf(orderId: string): Promise<{ id: string; status: string } | undefined> {
    const o = (await paypalApi('GET', `/v2/checkout/orders/${orderId}`)).body;
    const c = o.purchase_units?.[0]?.payments?.captures?.[0] as { id: string; status: string } | undefined;
    return c && { id: c.id, status: c.status };
  }

  async afterPurchase(which: number, action: 'refund' | 'reverse' | 'dispute' | 'complete-pending' | 'deny-pending'): Promise<void> {
    const order = this.nth(this.people.flatMap((p) => p.orders), which);
    const capture = order && (await this.captureOf(order.id));
    if (!order || !capture) return;
    if (action === 'complete-pending' || action === 'deny-pending') {
      if (capture.status === 'PENDING') await simulatorAction(`/simulator/captures/${capture.id}/${action === 'complete-pending' ? 'complete' : 'deny'}`);
      return;
    }
    if (capture.status !== 'COMPLETED' || this.returned.has(order.id)) return;
    if (action === 'dispute') {
      await simulatorAction(`/simulator/captures/${capture.id}/dispute`).catch(() => undefined);
      return;
    }
    this.returned.add(order.id);
    if (action === 'refund') await refundAtPaypal(capture.id);
    else await simulatorAction(`/simulator/captures/${capture.id}/reverse`);
  }

  private async planStatus(id: string): Promise<string> {
    return String((await paypalApi('GET', `/v1/billing/subscriptions/${id}`)).body.status ?? '');
  }

  private async billingPlanOf(p: Person): Promise<string | undefined> {
    for (const id of p.plans) if (['ACTIVE', 'SUSPENDED'].includes(await this.planStatus(id))) return id;
    return undefined;
  }

  async subscribe(who: number, plan: number): Promise<void> {
    const p = this.living(who);
    if (!p) return;
    const url = await startSubscription(p.user, this.nth(PLANS, plan)!.id).catch(() => undefined);
    if (!url) return;
    p.pages.push(url);
    const mine = await json<{ id?: string }>(await api(p.user, '/api/subscription'));
    if (mine.id) p.plans.add(mine.id);
  }

  async approvePlan(who: number, page: 'latest' | 'earlier'): Promise<void> {
    const p = this.living(who);
    if (!p?.pages.length) return;
    const url = page === 'latest' ? p.pages[p.pages.length - 1]! : p.pages[0]!;
    if (page === 'earlier' && p.pages.length < 2) return;
    p.pages.splice(p.pages.indexOf(url), 1);
    const back = await decideSubscription(url, 'approve').catch(() => undefined);
    if (!back) return;
    const id = new URL(back).searchParams.get('subscription_id');
    if (id) p.plans.add(id);
    await visit(back);
    // The page it lands on asks for the plan (the public return itself reads nothing).
    await (await api(p.user, '/api/subscription')).arrayBuffer();
  }

  async atPaypal(who: number, action: 'bill' | 'fail' | 'suspend' | 'reactivate' | 'cancel'): Promise<void> {
    const p = this.nth(this.people, who);
    const id = p && (await this.billingPlanOf(p));
    if (!id) return;
    if (action === 'bill' || action === 'fail') await simulatorPlanAction(id, 'bill', action === 'bill' ? 'completed' : 'failed');
    else await simulatorPlanAction(id, action);
  }

  async changePlan(who: number, plan: number): Promise<void> {
    const p = this.living(who);
    if (p) await (await api(p.user, '/api/subscription/change', { method: 'POST', body: JSON.stringify({ planId: this.nth(PLANS, plan)!.id }) })).arrayBuffer();
  }

  async cancelPlan(who: number): Promise<void> {
    const p = this.living(who);
    if (p) await (await api(p.user, '/api/subscription/cancel', { method: 'POST' })).arrayBuffer();
  }

  private async salesOf(id: string): Promise<Array<{ id: string; status: string }>> {
    const range = `start_time=2020-01-01T00:00:00Z&end_time=${new Date(Date.now() + 86_400_000).toISOString()}`;
    return ((await paypalApi('GET', `/v1/billing/subscriptions/${id}/transactions?${range}`)).body.transactions ?? []) as Array<{ id: string; status: string }>;
  }

  async refundSale(which: number, reverse: boolean): Promise<void> {
    const sales = [];
    for (const p of this.people) for (const id of p.plans) sales.push(...(await this.salesOf(id)).filter((s) => s.status === 'COMPLETED'));
    const sale = this.nth(sales, which);
    if (!sale) return;
    this.returned.add(sale.id);
    await simulatorAction(`/simulator/sales/${sale.id}/${reverse ? 'reverse' : 'refund'}`);
  }

  async generate(who: number, kind: GenerationKind, marker: Marker, source: number): Promise<void> {
    const p = this.living(who);
    if (!p) return;
    // [stuck] and [busy] wait out the model's maximum time or the queue's: the drain backdates jobs, not the simulator.
    const prompt = `a lighthouse at dusk ${marker === '[stuck]' || marker === '[busy]' ? '' : marker}`.trim();
    let mediaId: string | undefined;
    if (kind === 'edit' || kind === 'upscale') {
      const list = await json<{ items?: Array<{ id: string; type: string }> }>(await api(p.user, '/api/media?type=image'));
      mediaId = this.nth((list.items ?? []).filter((m) => m.type === 'image'), source)?.id;
      if (!mediaId) return;
    }
    const bodies: Record<GenerationKind, Record<string, unknown>> = {
      image: { model: 'flux-fast', prompt },
      batch: { model: 'sdxl', prompt, options: { count: 2 + (source % 3) } },
      video: { model: 'pixverse', prompt, options: { duration: 5, quality: '540p' } },
      clip10: { model: 'wan', prompt, options: { duration: 10 } },
      edit: { model: 'edit', prompt, inputs: { image: mediaId } },
      upscale: { model: 'upscale', inputs: { image: mediaId } },
    };
    const res = await api(p.user, '/api/generations', { method: 'POST', body: JSON.stringify(bodies[kind]) });
    const body = await json<{ predictionId?: string }>(res);
    if (res.status === 200 && body.predictionId) p.jobs.push(body.predictionId);
  }

  async cancelJob(who: number, which: number, acceptCharge: boolean): Promise<void> {
    const p = this.living(who);
    const id = p && this.nth(p.jobs, which);
    if (id) await (await api(p.user, `/api/jobs/${id}/cancel`, { method: 'POST', body: JSON.stringify({ acceptCharge }) })).arrayBuffer();
  }

  /** PayPal resends an event it delivered before (a duplicate, and late: out of order). */
  async deliverWebhook(which: number): Promise<void> {
    const handled = (await scanAll()).filter((i) => String(i.pk).startsWith('WEBHOOK#paypal:'));
    const event = this.nth(handled, which);
    if (event) await paypalApi('POST', `/v1/notifications/webhooks-events/${String(event.pk).slice('WEBHOOK#paypal:'.length)}/resend`);
  }

  async stream(): Promise<void> {
    await drainStreams().catch(() => undefined);
  }

  async crash(k: number): Promise<void> {
    if (this.kills >= KILLS_PER_SEQUENCE) return;
    this.kills++;
    // In the middle of whatever runs now: the simulators' webhooks and jobs of the steps just before.
    await new Promise((r) => setTimeout(r, k * 40));
    await killAndRestart();
  }

  async reconcile(): Promise<void> {
    for (const id of ['reconcileJobs', 'reconcileOrders']) await (await fetch(`${stackUrl()}/_dev/background/run/${id}`, { method: 'POST' })).arrayBuffer();
  }

  /**
   * Time passes: the stream caught up, every open job past its deadline (backdated an hour: the simulator's `[stuck]`
   * and `[busy]` are left out of stack prompts, so this only hurries what would end anyway), the reconcilers run;
   * until the money model holds settled or 60 s have passed (then the check after the drain reports what is left).
   */
  async drain(): Promise<void> {
    const deadline = Date.now() + 60_000;
    for (;;) {
      this.plansMoved = true;
      await this.stream();
      for (const i of await scanAll()) {
        if (String(i.pk).startsWith('JOB#') && i.openpk && Date.now() - Date.parse(String(i.createdAt)) < 3_600_000) await backdateJob(String(i.pk).slice(4), 3_600_000).catch(() => undefined);
      }
      await this.reconcile();
      await this.stream();
      const { items, facts } = await this.snapshot();
      if (!moneyProblems(items, facts, true).length || Date.now() > deadline) return;
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /**
   * The table and PayPal's facts. PayPal is read only where something may have changed: a capture not settled yet (our
   * server captures when the return, a webhook or the reconciler gets there), and the plans after a step that may move
   * them (every step but the generations' and the stream's).
   */
  async snapshot(): Promise<{ items: Item[]; facts: Facts }> {
    const items = await scanAll();
    const paid: Facts['paid'] = [];
    for (const p of this.people) {
      for (const o of p.orders) {
        if (!o.never && (!o.capture || o.capture === 'PENDING')) o.capture = (await this.captureOf(o.id))?.status;
        if (o.capture === 'COMPLETED') paid.push({ kind: 'pack', ref: o.id, owner: p.user.sub, credits: o.credits, returned: this.returned.has(o.id) });
      }
    }
    if (this.plansMoved) {
      this.planFacts = { sales: [], billing: [] };
      for (const p of this.people) {
        for (const id of p.plans) {
          for (const s of await this.salesOf(id)) this.planFacts.sales.push({ kind: 'sale', ref: s.id, owner: p.user.sub, returned: s.status === 'REFUNDED' });
          if (['ACTIVE', 'SUSPENDED'].includes(await this.planStatus(id))) this.planFacts.billing.push({ owner: p.user.sub, id });
        }
      }
      this.plansMoved = false;
    }
    for (const s of this.planFacts.sales) paid.push({ ...s, returned: s.returned || this.returned.has(s.ref) });
    return { items, facts: { people: this.people.map((p) => ({ sub: p.user.sub, deleted: p.deleted, ...(p.planAtDeletion ? { planAtDeletion: p.planAtDeletion } : {}) })), paid, billing: this.planFacts.billing } };
  }

  /** PayPal's plans and sales as last read; read again after a step that may have moved them. */
  private planFacts: { sales: Facts['paid']; billing: Facts['billing'] } = { sales: [], billing: [] };
  plansMoved = true;

  async close(): Promise<void> {}
}

export const stackWorld = async (holes: ReadonlySet<Hole>): Promise<World> => new StackWorld(holes);
