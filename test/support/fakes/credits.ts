/**
 * The accounts' credits and their ledger, in memory, with the one rule the DynamoDB adapters keep: a balance moves
 * only in one change that also writes its ledger row and makes the transition it belongs to (a job charged or ended,
 * an order credited), all or nothing. What a change may do and what it makes is decided by the same rules the adapter
 * follows (`lambdas/domain/money-rules.ts`: charge admission, plan credits spent first and given back, a grant's
 * rollover cap, the ledger rows); test/contract holds this fake and the DynamoDB adapters to the same expectations.
 * Synchronous inside, so a change cannot interleave with another: the fakes' `await`s are where concurrent callers
 * can meet, as between DynamoDB calls. `expectBooksBalanced` holds every test to it: each balance is its welcome plus
 * its ledger rows, each row's balance the running total.
 */
import type { LedgerReason } from '../../../contract/payments';
import type { Account, AccountStore } from '../../../lambdas/ports/accounts';
import type { LedgerEntry, LedgerHistory } from '../../../lambdas/ports/payments';
import { decideCreditChange, lateGrantSince, type PlanRule } from '../../../lambdas/domain/money-rules';

export interface OwnedLedgerEntry extends LedgerEntry {
  owner: string;
}

export interface CreditChange {
  sub: string;
  delta: number;
  reason: LedgerReason;
  ref: string;
  at: string;
  /** Only refunds of purchases may leave the balance below zero (a job's refund lands whatever the balance too). */
  allowNegative?: boolean;
  /** A charge that starts a job takes a place below `cap`; the change that ends it gives the place back. */
  activeJobs?: { add: 1; cap: number } | { add: -1 };
  /** How the change moves plan credits (absent: a charge spends them first). */
  plan?: PlanRule;
  /**
   * The transition the change belongs to: `holds` is its condition, `apply` makes it (in the same step), told the
   * plan credits a charge spent (what the adapter notes on a job as `planCost`).
   */
  transition?: { holds: () => boolean; apply: (made: { planSpent: number }) => void };
}

export type CreditChangeResult =
  | { ok: true; balance: number }
  | { ok: false; why: 'insufficient'; balance: number }
  | { ok: false; why: 'busy'; active: number }
  | { ok: false; why: 'closing' | 'no-account' | 'already-done' };

interface StoredAccount extends Account {
  activeJobs: number;
  /** The part of `credits` a plan granted. */
  planCredits: number;
}

export class MemoryCredits implements AccountStore, LedgerHistory {
  readonly accounts = new Map<string, StoredAccount>();
  readonly ledger: OwnedLedgerEntry[] = [];
  /** Subs whose account was deleted (their tombstones). */
  readonly tombstones = new Set<string>();
  /** Addresses (lower-case) that had their welcome credits. */
  readonly welcomed = new Set<string>();
  /** A grant row's one-month cap, by row id (the adapter's `month` on the row). */
  private readonly months = new Map<string, number>();
  /** Set to make the next changes throw, as a table that does not answer. */
  down = false;

  constructor(private readonly welcome = 10) {}

  /** An account with `credits` bought at `at` (a welcome row, then a purchase row for the rest). */
  seed(sub: string, credits: number, at = '2026-01-01T00:00:00.000Z'): void {
    this.accounts.set(sub, { sub, email: `${sub}@example.com`, firstName: 'Test', lastName: 'User', createdAt: at, credits: 0, activeJobs: 0, planCredits: 0 });
    if (credits) this.change({ sub, delta: credits, reason: 'purchase', ref: `seed-${sub}`, at });
  }

  change(c: CreditChange): CreditChangeResult {
    if (this.down) throw new Error('table down');
    const account = this.accounts.get(c.sub);
    // A late grant (asOf its sale) is decided over the owner's rows written since, as the adapter's ledger read has them.
    const since = lateGrantSince(c);
    const later = since
      ? this.ledger.filter((r) => r.owner === c.sub && r.createdAt > since).map((r) => ({ reason: r.reason, delta: r.delta, plan: r.plan ?? 0, ...(this.months.has(r.id) ? { month: this.months.get(r.id)! } : {}) }))
      : [];
    const decided = decideCreditChange(account && { credits: account.credits, planCredits: account.planCredits, activeJobs: account.activeJobs, deleting: account.deleting === true }, c, later);
    if (!decided.ok) return decided;
    if (c.transition && !c.transition.holds()) return { ok: false, why: 'already-done' };
    c.transition?.apply({ planSpent: decided.planSpent });
    account!.credits = decided.balance;
    account!.planCredits = decided.planCredits;
    if (c.activeJobs) account!.activeJobs = Math.max(0, account!.activeJobs + c.activeJobs.add);
    for (const row of decided.rows) {
      this.row(c.sub, { createdAt: c.at, reason: row.reason, delta: row.delta, ...(row.plan ? { plan: row.plan } : {}), balance: row.balance, ref: c.ref });
      if (row.month !== undefined) this.months.set(this.ledger.at(-1)!.id, row.month);
    }
    return { ok: true, balance: decided.balance };
  }

  private row(owner: string, r: Omit<LedgerEntry, 'id'>): void {
    this.ledger.push({ owner, id: `L${this.ledger.length + 1}`, ...r });
  }

  /** The owner's whole balance and its plan part. */
  balances(sub: string): { credits: number; planCredits: number } {
    const a = this.accounts.get(sub);
    return { credits: a?.credits ?? 0, planCredits: a?.planCredits ?? 0 };
  }

  /** The owner's running jobs given back without a credit change (a job that succeeded, or ended unrefunded). */
  leaveQueue(sub: string): void {
    const account = this.accounts.get(sub);
    if (account) account.activeJobs = Math.max(0, account.activeJobs - 1);
  }

  activeJobs(sub: string): number {
    return this.accounts.get(sub)?.activeJobs ?? 0;
  }

  rowsOf(sub: string): OwnedLedgerEntry[] {
    return this.ledger.filter((l) => l.owner === sub);
  }

  // ---- AccountStore ----

  async get(sub: string): Promise<Account | undefined> {
    const a = this.accounts.get(sub);
    if (!a) return undefined;
    const { activeJobs: _active, planCredits: _plan, ...account } = a;
    return { ...account };
  }

  async balance(sub: string): Promise<number> {
    return this.accounts.get(sub)?.credits ?? 0;
  }

  async isDeleted(sub: string): Promise<boolean> {
    return this.tombstones.has(sub);
  }

  async createWithWelcome(account: Account): Promise<'created' | 'no-welcome' | 'exists' | 'deleted'> {
    if (this.tombstones.has(account.sub)) return 'deleted';
    if (this.accounts.has(account.sub)) return 'exists';
    const address = account.email.toLowerCase();
    const welcome = this.welcomed.has(address) ? 0 : this.welcome;
    this.accounts.set(account.sub, { ...account, credits: 0, activeJobs: 0, planCredits: 0 });
    if (welcome) this.change({ sub: account.sub, delta: welcome, reason: 'welcome', ref: account.sub, at: account.createdAt });
    this.welcomed.add(address);
    return welcome ? 'created' : 'no-welcome';
  }

  // ---- LedgerHistory ----

  async list(owner: string, limit: number, cursor?: string) {
    const rows = this.rowsOf(owner).reverse();
    const start = cursor ? Number(cursor) : 0;
    const items = rows.slice(start, start + limit);
    return { items, ...(start + limit < rows.length ? { nextCursor: String(start + limit) } : {}) };
  }
}

/** Every balance is the sum of its ledger rows, and each row's balance is the running total up to it. */
export function expectBooksBalanced(credits: MemoryCredits): void {
  for (const [sub, account] of credits.accounts) {
    let running = 0;
    for (const row of credits.rowsOf(sub)) {
      running += row.delta;
      expect({ sub, row: row.id, balance: row.balance }).toEqual({ sub, row: row.id, balance: running });
    }
    expect({ sub, credits: account.credits }).toEqual({ sub, credits: running });
  }
}
