/**
 * The money ports' contract: the same expectations, run against every backend of the credit and ledger ports and
 * the jobs', orders' and subscriptions' money operations (the in-memory fakes use cases are tested with, in
 * `money-memory.test.ts`; the DynamoDB adapters on the embedded stack's DynamoDB Local, in `money-dynamodb.test.ts`).
 * A fake that drifts from the real store fails here, on the backend that drifted. Each test opens its own accounts
 * (10 welcome credits) and moves money only through the ports.
 */
import { randomUUID } from 'node:crypto';
import { SIGNUP_CREDITS } from '../../contract/catalog';
import { newId } from '../../lambdas/domain/ids';
import type { AccountStore } from '../../lambdas/ports/accounts';
import type { Job, JobStore } from '../../lambdas/ports/jobs';
import type { LedgerHistory, Order, OrderStore, TakeBack } from '../../lambdas/ports/payments';
import type { SaleGrant, SubscriptionStore } from '../../lambdas/ports/subscriptions';

export interface MoneyBackend {
  accounts: AccountStore;
  jobs: JobStore;
  orders: OrderStore;
  subscriptions: SubscriptionStore;
  ledger: LedgerHistory;
  /** The deletion's mark (AccountData.markDeleting on the table; the account's flag in memory). */
  markDeleting(sub: string): Promise<boolean>;
  /** The backend's own whole-books check over these accounts (balances and plan credits match their ledgers...). */
  expectBooksBalanced(subs: readonly string[]): Promise<void>;
}

const RUNNING_CAP = 4;

/** The rows as the owner's history shows them, without ids, times and refs; in a stable order (rows of one millisecond may list either way). */
async function ledgerOf(b: MoneyBackend, sub: string) {
  const { items } = await b.ledger.list(sub, 100);
  return items.map((r) => ({ reason: r.reason, delta: r.delta, plan: r.plan ?? 0, balance: r.balance })).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));
}
const rows = (...r: Array<{ reason: string; delta: number; plan?: number; balance: number }>) =>
  r.map((x) => ({ plan: 0, ...x })).map(({ reason, delta, plan, balance }) => ({ reason, delta, plan, balance })).sort((x, y) => JSON.stringify(x).localeCompare(JSON.stringify(y)));

const WELCOME = { reason: 'welcome', delta: SIGNUP_CREDITS, balance: SIGNUP_CREDITS };

function jobOf(owner: string, cost: number): Job {
  const now = new Date();
  return { id: newId(now), owner, kind: 'image', model: 'stability-ai/sdxl', prompt: 'a quay at dusk', options: {}, cost, status: 'pending', createdAt: now.toISOString(), countsActive: true };
}

/**
 * Resolves once the clock has moved past now: the next row (and a sale's date taken after it) falls at a later instant,
 * as a late grant's "rows written after its sale" needs. It waits for the clock, not for anything else to happen.
 */
async function nextInstant(): Promise<string> {
  const t = Date.now();
  while (Date.now() <= t) await new Promise((r) => setImmediate(r));
  return new Date().toISOString();
}

function saleOf(owner: string, credits: number, monthCredits = credits): SaleGrant {
  return { owner, saleId: `SALE-${randomUUID()}`, subscriptionId: 'I-CONTRACT', planId: 'starter', credits, monthCredits, amount: { currency: 'USD', value: '9.99' }, at: new Date().toISOString() };
}

export function describeMoneyContract(backend: string, make: () => MoneyBackend): void {
  describe(`the money ports' contract (${backend})`, () => {
    let b: MoneyBackend;
    const opened: string[] = [];
    beforeAll(() => {
      b = make();
    });
    afterAll(async () => {
      await b.expectBooksBalanced(opened);
    });

    /** A new account with its welcome credits. */
    async function open(): Promise<string> {
      const sub = `contract-${randomUUID()}`;
      const made = await b.accounts.createWithWelcome({ sub, email: `${sub}@contract.test`, firstName: 'Con', lastName: 'Tract', createdAt: new Date().toISOString(), credits: SIGNUP_CREDITS });
      expect(made).toBe('created');
      opened.push(sub);
      return sub;
    }

    /** A pack of `credits` bought and captured: the order as stored. */
    async function buy(sub: string, credits: number): Promise<Order> {
      const at = new Date().toISOString();
      const order: Order = { id: `ORDER-${randomUUID()}`, owner: sub, packId: 'contract-pack', credits, amount: '6.99', currency: 'USD', status: 'created', createdAt: at, statusAt: at };
      await b.orders.create(order);
      expect(await b.orders.captureAndCredit(order, { captureId: `CAP-${order.id}`, capturedAt: at })).toMatchObject({ credited: true });
      return (await b.orders.get(order.id))!;
    }

    function refundOf(order: Order, creditsTakenBack: number, refundedCents: number, refundId = `REF-${randomUUID()}`): TakeBack {
      const status = refundedCents >= 699 ? 'refunded' : 'partially_refunded';
      return { refundId, reason: 'purchase-refund', refundedCents, creditsTakenBack, status, at: new Date().toISOString() };
    }

    const balanceOf = (sub: string) => b.accounts.balance(sub);

    it('a charge takes the cost with its ledger row and stores the job', async () => {
      const sub = await open();
      const job = jobOf(sub, 3);
      expect(await b.jobs.createCharged(job, undefined, undefined, RUNNING_CAP)).toEqual({ ok: true, balance: 7 });
      expect(await b.jobs.get(job.id)).toMatchObject({ id: job.id, status: 'pending', cost: 3 });
      expect(await balanceOf(sub)).toBe(7);
      expect(await ledgerOf(b, sub)).toEqual(rows(WELCOME, { reason: 'image', delta: -3, balance: 7 }));
    });

    it('a charge the balance cannot pay is refused with the balance, nothing charged or stored', async () => {
      const sub = await open();
      const job = jobOf(sub, 11);
      expect(await b.jobs.createCharged(job, undefined, undefined, RUNNING_CAP)).toEqual({ ok: false, balance: 10 });
      expect(await b.jobs.get(job.id)).toBeUndefined();
      expect(await ledgerOf(b, sub)).toEqual(rows(WELCOME));
      // The whole balance is spendable: to zero, not below.
      expect(await b.jobs.createCharged(jobOf(sub, 10), undefined, undefined, RUNNING_CAP)).toEqual({ ok: true, balance: 0 });
    });

    it('a balance below zero pays for nothing, and a refund lands on it', async () => {
      const sub = await open();
      const pack = await buy(sub, 20);
      const job = jobOf(sub, 25);
      expect(await b.jobs.createCharged(job, undefined, undefined, RUNNING_CAP)).toEqual({ ok: true, balance: 5 });
      // The pack refunded in full after its credits were spent: the one change that may go below zero.
      expect(await b.orders.takeBack(pack, refundOf(pack, 20, 699))).toEqual({ applied: true, balance: -15 });
      expect(await b.jobs.createCharged(jobOf(sub, 1), undefined, undefined, RUNNING_CAP)).toEqual({ ok: false, balance: -15 });
      expect(await b.jobs.failAndRefund(job, 'failed', 'The model failed')).toBe(true);
      expect(await balanceOf(sub)).toBe(10);
    });

    it('an account marked for deletion, or gone, is charged nothing', async () => {
      const sub = await open();
      expect(await b.markDeleting(sub)).toBe(true);
      const job = jobOf(sub, 1);
      expect(await b.jobs.createCharged(job, undefined, undefined, RUNNING_CAP)).toEqual({ ok: false, accountClosing: true });
      expect(await b.jobs.get(job.id)).toBeUndefined();
      expect(await balanceOf(sub)).toBe(10);
      expect(await b.jobs.createCharged(jobOf(`contract-never-${randomUUID()}`, 1), undefined, undefined, RUNNING_CAP)).toEqual({ ok: false, accountClosing: true });
    });

    it('a start at the running-jobs cap is refused; a job that ends gives its place back', async () => {
      const sub = await open();
      const first = jobOf(sub, 1);
      expect(await b.jobs.createCharged(first, undefined, undefined, 2)).toEqual({ ok: true, balance: 9 });
      expect(await b.jobs.createCharged(jobOf(sub, 1), undefined, undefined, 2)).toEqual({ ok: true, balance: 8 });
      expect(await b.jobs.createCharged(jobOf(sub, 1), undefined, undefined, 2)).toEqual({ ok: false, queueFull: true });
      expect(await balanceOf(sub)).toBe(8);
      expect(await b.jobs.failAndRefund(first, 'failed', 'The model failed')).toBe(true);
      expect(await b.jobs.createCharged(jobOf(sub, 1), undefined, undefined, 2)).toEqual({ ok: true, balance: 8 });
    });

    it('a start past the daily cap is refused, a refunded job still counting', async () => {
      const sub = await open();
      const first = jobOf(sub, 1);
      expect(await b.jobs.createCharged(first, undefined, 2, RUNNING_CAP)).toEqual({ ok: true, balance: 9 });
      expect(await b.jobs.createCharged(jobOf(sub, 1), undefined, 2, RUNNING_CAP)).toEqual({ ok: true, balance: 8 });
      expect(await b.jobs.failAndRefund(first, 'failed', 'The model failed')).toBe(true);
      const third = jobOf(sub, 1);
      expect(await b.jobs.createCharged(third, undefined, 2, RUNNING_CAP)).toEqual({ ok: false, dailyCapReached: true });
      expect(await b.jobs.get(third.id)).toBeUndefined();
      expect(await balanceOf(sub)).toBe(9);
    });

    it('the balance is told before the daily cap when both refuse', async () => {
      const sub = await open();
      expect(await b.jobs.createCharged(jobOf(sub, 10), undefined, 1, RUNNING_CAP)).toEqual({ ok: true, balance: 0 });
      expect(await b.jobs.createCharged(jobOf(sub, 1), undefined, 1, RUNNING_CAP)).toEqual({ ok: false, balance: 0 });
    });

    it('a job is refunded once: its whole cost, with its ledger row, whichever of fail and cancel comes', async () => {
      const sub = await open();
      const job = jobOf(sub, 4);
      await b.jobs.createCharged(job, undefined, undefined, RUNNING_CAP);
      const read = (await b.jobs.get(job.id))!;
      expect(await b.jobs.failAndRefund(read, 'failed', 'The model failed')).toBe(true);
      expect(await b.jobs.failAndRefund(read, 'failed', 'The model failed')).toBe(false);
      expect(await b.jobs.cancel(read, true, 'Canceled')).toBe(false);
      expect(await b.jobs.get(job.id)).toMatchObject({ status: 'failed', refunded: true });
      expect(await balanceOf(sub)).toBe(10);
      expect(await ledgerOf(b, sub)).toEqual(rows(WELCOME, { reason: 'image', delta: -4, balance: 6 }, { reason: 'refund', delta: 4, balance: 10 }));

      const other = jobOf(sub, 2);
      await b.jobs.createCharged(other, undefined, undefined, RUNNING_CAP);
      expect(await b.jobs.cancel(other, true, 'Canceled')).toBe(true);
      expect(await b.jobs.failAndRefund(other, 'failed', 'The model failed')).toBe(false);
      expect(await b.jobs.get(other.id)).toMatchObject({ status: 'canceled', refunded: true });
      expect(await balanceOf(sub)).toBe(10);
    });

    it('a job that succeeded is not refunded', async () => {
      const sub = await open();
      const job = jobOf(sub, 2);
      await b.jobs.createCharged(job, undefined, undefined, RUNNING_CAP);
      const media = { id: newId(), owner: sub, type: 'image' as const, key: `u/${sub}/x.png`, prompt: job.prompt, model: job.model, options: {}, createdAt: new Date().toISOString(), jobId: job.id };
      expect(await b.jobs.succeed(job, [media])).toBe(true);
      expect(await b.jobs.failAndRefund(job, 'failed', 'The model failed')).toBe(false);
      expect(await balanceOf(sub)).toBe(8);
      // Its place in the running jobs is given back with its success.
      for (let i = 0; i < RUNNING_CAP; i++) expect(await b.jobs.createCharged(jobOf(sub, 1), undefined, undefined, RUNNING_CAP)).toMatchObject({ ok: true });
    });

    it('a pack is credited once, however often its capture is told', async () => {
      const sub = await open();
      const order = await buy(sub, 30);
      expect(await b.orders.captureAndCredit(order, { captureId: `CAP-${order.id}`, capturedAt: new Date().toISOString() })).toEqual({ credited: false });
      expect(await balanceOf(sub)).toBe(40);
      expect(await ledgerOf(b, sub)).toEqual(rows(WELCOME, { reason: 'purchase', delta: 30, balance: 40 }));
    });

    it('a plan payment is granted once by its sale id, stored as a captured order', async () => {
      const sub = await open();
      const sale = saleOf(sub, 30);
      expect(await b.subscriptions.grant(sale)).toEqual({ credited: true, balance: 40 });
      expect(await b.subscriptions.grant(sale)).toEqual({ credited: false });
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 40, planCredits: 30 });
      expect(await b.orders.get(sale.saleId)).toMatchObject({ id: sale.saleId, owner: sub, status: 'captured', credits: 30, subscriptionId: 'I-CONTRACT' });
      expect(await ledgerOf(b, sub)).toEqual(rows(WELCOME, { reason: 'plan', delta: 30, plan: 30, balance: 40 }));
    });

    it('a charge spends plan credits first, and its refund gives them back as plan credits', async () => {
      const sub = await open();
      await b.subscriptions.grant(saleOf(sub, 30));
      const small = jobOf(sub, 5);
      expect(await b.jobs.createCharged(small, undefined, undefined, RUNNING_CAP)).toEqual({ ok: true, balance: 35 });
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 35, planCredits: 25 });
      const big = jobOf(sub, 30);
      expect(await b.jobs.createCharged(big, undefined, undefined, RUNNING_CAP)).toEqual({ ok: true, balance: 5 });
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 5, planCredits: 0 });
      const stored = (await b.jobs.get(big.id))!;
      expect(stored.planCost).toBe(25);
      expect(await b.jobs.failAndRefund(stored, 'failed', 'The model failed')).toBe(true);
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 35, planCredits: 25 });
      expect(await ledgerOf(b, sub)).toEqual(
        rows(
          WELCOME,
          { reason: 'plan', delta: 30, plan: 30, balance: 40 },
          { reason: 'image', delta: -5, plan: -5, balance: 35 },
          { reason: 'image', delta: -30, plan: -25, balance: 5 },
          { reason: 'refund', delta: 30, plan: 25, balance: 35 },
        ),
      );
    });

    it('a grant rolls over at most one month of plan credits; the rest expires on its own ledger row', async () => {
      const sub = await open();
      await b.subscriptions.grant(saleOf(sub, 30));
      await b.subscriptions.grant(saleOf(sub, 30));
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 70, planCredits: 60 });
      expect(await b.subscriptions.grant(saleOf(sub, 30))).toEqual({ credited: true, balance: 70 });
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 70, planCredits: 60 });
      // One payment of two months (an outstanding balance collected): the grant is two months, the rollover still one.
      expect(await b.subscriptions.grant(saleOf(sub, 60, 30))).toEqual({ credited: true, balance: 100 });
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 100, planCredits: 90 });
      expect(await ledgerOf(b, sub)).toEqual(
        rows(
          WELCOME,
          { reason: 'plan', delta: 30, plan: 30, balance: 40 },
          { reason: 'plan', delta: 30, plan: 30, balance: 70 },
          { reason: 'plan-expiry', delta: -30, plan: -30, balance: 40 },
          { reason: 'plan', delta: 30, plan: 30, balance: 70 },
          { reason: 'plan-expiry', delta: -30, plan: -30, balance: 40 },
          { reason: 'plan', delta: 60, plan: 60, balance: 100 },
        ),
      );
    });

    it('a refund takes back once per refund id, in proportion as told, a pack leaving plan credits alone', async () => {
      const sub = await open();
      await b.subscriptions.grant(saleOf(sub, 30));
      const pack = await buy(sub, 20);
      const first = refundOf(pack, 10, 350);
      expect(await b.orders.takeBack(pack, first)).toEqual({ applied: true, balance: 50 });
      expect(await b.orders.takeBack(pack, first)).toEqual({ applied: false, why: 'stale' });
      const read = (await b.orders.get(pack.id))!;
      expect(read).toMatchObject({ status: 'partially_refunded', refundedCents: 350, creditsTakenBack: 10 });
      expect(await b.orders.takeBack(read, { ...first, at: new Date().toISOString() })).toEqual({ applied: false, why: 'stale' });
      expect(await b.orders.takeBack(read, refundOf(read, 20, 699))).toEqual({ applied: true, balance: 40 });
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 40, planCredits: 30 });
    });

    it('a refund of a cent takes back nothing and writes no ledger row, but is recorded once', async () => {
      const sub = await open();
      const pack = await buy(sub, 20);
      const cent = refundOf(pack, 0, 1);
      expect(await b.orders.takeBack(pack, cent)).toEqual({ applied: true, balance: 30 });
      expect(await b.orders.get(pack.id)).toMatchObject({ status: 'partially_refunded', refundedCents: 1, creditsTakenBack: 0 });
      expect(await b.orders.takeBack(pack, cent)).toEqual({ applied: false, why: 'stale' });
      expect(await ledgerOf(b, sub)).toEqual(rows(WELCOME, { reason: 'purchase', delta: 20, balance: 30 }));
    });

    it('nothing is taken back from an order never paid', async () => {
      const sub = await open();
      const at = new Date().toISOString();
      const order: Order = { id: `ORDER-${randomUUID()}`, owner: sub, packId: 'contract-pack', credits: 20, amount: '6.99', currency: 'USD', status: 'created', createdAt: at, statusAt: at };
      await b.orders.create(order);
      expect(await b.orders.takeBack(order, refundOf(order, 20, 699))).toEqual({ applied: false, why: 'stale' });
      expect(await balanceOf(sub)).toBe(10);
    });

    it('an order whose buyer is gone is recorded captured and refunded, crediting and taking from no one', async () => {
      const sub = await open();
      const at = new Date().toISOString();
      const order: Order = { id: `ORDER-${randomUUID()}`, owner: sub, packId: 'contract-pack', credits: 20, amount: '6.99', currency: 'USD', status: 'created', createdAt: at, statusAt: at };
      await b.orders.create(order);
      // As the deletion leaves it: kept for accounting, without its owner.
      const kept = { ...order, owner: '' };
      expect(await b.orders.captureAndCredit(kept, { captureId: `CAP-${order.id}`, capturedAt: at })).toEqual({ credited: false });
      expect(await b.orders.get(order.id)).toMatchObject({ status: 'captured' });
      expect(await b.orders.takeBack({ ...kept, status: 'captured' }, refundOf(kept, 20, 699))).toEqual({ applied: true, balance: 0 });
      expect(await b.orders.get(order.id)).toMatchObject({ status: 'refunded', creditsTakenBack: 20 });
      expect(await balanceOf(sub)).toBe(10);
    });

    it('a purchase or a grant for an account that does not exist is refused loudly, nothing stored as granted', async () => {
      const nobody = `contract-never-${randomUUID()}`;
      const at = new Date().toISOString();
      const order: Order = { id: `ORDER-${randomUUID()}`, owner: nobody, packId: 'contract-pack', credits: 20, amount: '6.99', currency: 'USD', status: 'created', createdAt: at, statusAt: at };
      await b.orders.create(order);
      await expect(b.orders.captureAndCredit(order, { captureId: `CAP-${order.id}`, capturedAt: at })).rejects.toThrow(/no-account/);
      expect(await b.orders.get(order.id)).toMatchObject({ status: 'created' });
      const sale = saleOf(nobody, 30);
      await expect(b.subscriptions.grant(sale)).rejects.toThrow(/no-account/);
      expect(await b.orders.get(sale.saleId)).toBeUndefined();
    });

    it('plan credits never exceed the balance: a pack taken back after its credits were spent takes the plan credits it no longer covers', async () => {
      const sub = await open();
      const pack = await buy(sub, 20);
      expect(await b.jobs.createCharged(jobOf(sub, 25), undefined, undefined, RUNNING_CAP)).toEqual({ ok: true, balance: 5 });
      await b.subscriptions.grant(saleOf(sub, 30));
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 35, planCredits: 30 });
      expect(await b.orders.takeBack(pack, refundOf(pack, 20, 699))).toEqual({ applied: true, balance: 15 });
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 15, planCredits: 15 });
      expect(await ledgerOf(b, sub)).toContainEqual({ reason: 'purchase-refund', delta: -20, plan: -15, balance: 15 });
    });

    it('plan credits never exceed the balance: a grant to a balance below zero pays that first', async () => {
      const sub = await open();
      const pack = await buy(sub, 20);
      expect(await b.jobs.createCharged(jobOf(sub, 28), undefined, undefined, RUNNING_CAP)).toEqual({ ok: true, balance: 2 });
      expect(await b.orders.takeBack(pack, refundOf(pack, 20, 699))).toEqual({ applied: true, balance: -18 });
      expect(await b.subscriptions.grant(saleOf(sub, 30))).toEqual({ credited: true, balance: 12 });
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 12, planCredits: 12 });
      expect(await ledgerOf(b, sub)).toContainEqual({ reason: 'plan', delta: 30, plan: 12, balance: 12 });
    });

    it("a month granted late is capped as of its sale's date, over the rows written since: it holds what it would have held on time", async () => {
      const sub = await open();
      await b.subscriptions.grant(saleOf(sub, 30));
      // The second month is paid now, its webhook lost: granted last, by the reconciler.
      const paidAt = await nextInstant();
      const late = { ...saleOf(sub, 30), saleAt: paidAt };
      await nextInstant();
      // Meanwhile a job spends the first month and the welcome credits the second month would have spared.
      expect(await b.jobs.createCharged(jobOf(sub, 40), undefined, undefined, RUNNING_CAP)).toEqual({ ok: true, balance: 0 });
      await b.subscriptions.grant(saleOf(sub, 30));
      await b.subscriptions.grant(saleOf(sub, 30));
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 60, planCredits: 60 });
      // On time: 60 after the sale, 20 after the job, 50 and then 60 (20 expiring) after the next two months, with the
      // welcome's 10 still there: 70 in all. Capped at the grant's time it would be 60 (30 expiring).
      expect(await b.subscriptions.grant(late)).toEqual({ credited: true, balance: 70 });
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 70, planCredits: 70 });
      const history = await ledgerOf(b, sub);
      expect(history).toContainEqual({ reason: 'plan-expiry', delta: -20, plan: -20, balance: 40 });
      expect(history).toContainEqual({ reason: 'plan', delta: 30, plan: 30, balance: 70 });
      expect(await b.subscriptions.grant(late)).toEqual({ credited: false });
    });

    it("a plan payment's take-back takes plan credits first", async () => {
      const sub = await open();
      const sale = saleOf(sub, 30);
      await b.subscriptions.grant(sale);
      await b.jobs.createCharged(jobOf(sub, 5), undefined, undefined, RUNNING_CAP);
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 35, planCredits: 25 });
      const order = (await b.orders.get(sale.saleId))!;
      expect(await b.orders.takeBack(order, { ...refundOf(order, 30, 999), status: 'refunded' })).toEqual({ applied: true, balance: 5 });
      expect(await b.subscriptions.balances(sub)).toEqual({ credits: 5, planCredits: 0 });
      expect(await ledgerOf(b, sub)).toContainEqual({ reason: 'purchase-refund', delta: -30, plan: -25, balance: 5 });
    });
  });
}
