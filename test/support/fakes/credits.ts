/**
 * The accounts' credits and their ledger, in memory, with the one rule the DynamoDB adapters keep: a balance moves
 * only in one change that also writes its ledger row and makes the transition it belongs to (a job charged or ended,
 * an order credited), all or nothing. Plan credits move inside the balance as the adapter moves them (its own
 * `planMove`: a charge spends them first, a grant rolls over at most a month's on a plan-expiry row, a plan payment's
 * claw-back takes them first). Synchronous inside, so a change cannot interleave with another: the fakes'
 * `await`s are where concurrent callers can meet, as between DynamoDB calls. `expectBooksBalanced` holds every test
 * to it: each balance is its welcome plus its ledger rows, each row's balance the running total.
 */
import type { LedgerReason } from '../../../contract/payments';
import type { Account, AccountStore } from '../../../lambdas/ports/accounts';
import type { LedgerEntry, LedgerHistory } from '../../../lambdas/ports/payments';
import { planMove, type CreditChange as AdapterCreditChange } from '../../../lambdas/adapters/dynamodb-credits';

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
  /** How the change moves plan credits, as the adapter's (absent: a charge spends them first). */
  plan?: AdapterCreditChange['plan'];
  /** The transition the change belongs to: `holds` is its condition, `apply` makes it (in the same step). */
  transition?: { holds: () => boolean; apply: () => void };
}

export type CreditChangeResult =
  | { ok: true; balance: number }
  | { ok: false; why: 'insufficient'; balance: number }
  | { ok: false; why: 'busy' | 'closing' | 'no-account' | 'already-done' };

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
    if (!account) return { ok: false, why: c.delta < 0 ? 'closing' : 'no-account' };
    if (c.delta < 0 && account.deleting && c.reason !== 'purchase-refund' && c.reason !== 'chargeback') return { ok: false, why: 'closing' };
    const move = planMove(c, account.planCredits, account.credits);
    const balance = account.credits + c.delta - move.expired;
    const charge = c.reason === 'image' || c.reason === 'video';
    if (charge && balance < 0) return { ok: false, why: 'insufficient', balance: account.credits };
    if (c.delta < 0 && !charge && !c.allowNegative && balance < 0) return { ok: false, why: 'insufficient', balance: account.credits };
    if (c.activeJobs?.add === 1 && account.activeJobs >= c.activeJobs.cap) return { ok: false, why: 'busy' };
    if (c.transition && !c.transition.holds()) return { ok: false, why: 'already-done' };
    c.transition?.apply();
    if (move.expired) this.row(c.sub, { createdAt: c.at, reason: 'plan-expiry', delta: -move.expired, plan: -move.expired, balance: account.credits - move.expired, ref: c.ref });
    account.credits = balance;
    account.planCredits = move.after;
    if (c.activeJobs) account.activeJobs = Math.max(0, account.activeJobs + c.activeJobs.add);
    this.row(c.sub, { createdAt: c.at, reason: c.reason, delta: c.delta, ...(move.plan ? { plan: move.plan } : {}), balance, ref: c.ref });
    return { ok: true, balance };
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
