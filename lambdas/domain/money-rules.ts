/**
 * The money rules, in one place: who may be charged (charge admission), what a job's refund and a purchase's
 * take-back give and take, how plan credits move inside the balance (spent first, given back to their kind, a grant's
 * rollover cap) and which ledger rows a change writes. Pure: no I/O. The DynamoDB adapters turn each decision into
 * the values of their condition expressions and transaction items (the table enforces them atomically: a balance
 * conditioned on the value the decision was made from, `activeJobs < cap`, `jobs < cap`, `attribute_not_exists(deleting)`);
 * the in-memory fakes of test/support/fakes apply the same decisions, and test/contract holds both to the same
 * expectations.
 *
 * Two kinds of credits make one balance: `credits` is the whole balance and `planCredits` the part of it a plan granted
 * (the rest is pack and welcome credits, which never expire).
 */
import { CURRENCY, toCents } from '../../contract/packs';
import type { LedgerReason } from '../../contract/payments';
import { PLANS, findPlan, type Plan } from '../../contract/plans';
import { planAfterLateGrant, type LaterLedgerRow } from './plan-rollover';

/** How a change moves plan credits (absent: a charge spends them first, anything else leaves them). */
export type PlanRule =
  /**
   * `delta` is a plan payment's grant; what was left rolls over up to `month` (one month's grant), the rest expires.
   * With `asOf` (the sale's date, a month granted late) the cap applies as of that date, over the owner's ledger rows
   * written since (`lateGrantSince` says from when; plan-rollover.ts replays them).
   */
  | { kind: 'grant'; month: number; asOf?: string }
  /** A take-back of a plan's payment takes plan credits first. */
  | { kind: 'first' }
  /** A job's refund gives `back` of its delta back as plan credits (what its charge took from them). */
  | { kind: 'back'; back: number };

/** A credit change as the rules see it. */
export interface MoneyChange {
  delta: number;
  reason: LedgerReason;
  /** Only for taking back purchased credits (refund, chargeback): the balance may go below zero. */
  allowNegative?: boolean;
  /** A charge that starts a job takes a place below `cap` in the owner's running jobs; the change that ends it gives it back. */
  activeJobs?: { add: 1; cap: number } | { add: -1 };
  plan?: PlanRule;
}

/** The account as a change is decided on (undefined: there is none, deleted or never made). */
export interface AccountMoney {
  credits: number;
  planCredits: number;
  /** The owner's running jobs (the queue's counter). */
  activeJobs: number;
  /** Marked by the account's deletion: no charge from then on. */
  deleting: boolean;
}

/** A ledger row a change writes, without its id and time. */
export interface LedgerRow {
  reason: LedgerReason;
  delta: number;
  /** The part of delta that was plan credits (0: none). */
  plan: number;
  /** A plan grant's row: its one-month cap (what a later late grant replays it with). */
  month?: number;
  /** The balance after the row. */
  balance: number;
}

export type MoneyDecision =
  | {
      ok: true;
      /** The balance and plan credits after the change. */
      balance: number;
      planCredits: number;
      /** The plan credits a charge spent (its job's `planCost`): 0 for anything else. */
      planSpent: number;
      /** The rows to write, in the order things happen: a grant's expiry first, then the change's own row. */
      rows: LedgerRow[];
    }
  | { ok: false; why: 'insufficient'; balance: number }
  /** The owner already has `activeJobs.cap` jobs running. */
  | { ok: false; why: 'busy'; active: number }
  /** A charge on an account being deleted (or already gone): nothing changes. */
  | { ok: false; why: 'closing' }
  /** No account: a refund or credit has nowhere to land. */
  | { ok: false; why: 'no-account' };

/** A change that takes credits from the owner for something they asked for (a job), as opposed to giving them back. */
export const isCharge = (c: Pick<MoneyChange, 'delta' | 'allowNegative'>): boolean => c.delta < 0 && !c.allowNegative;

/** A counted limit (running jobs, generations a day): one more is allowed while the count is below the cap. */
export const withinCap = (count: number, cap: number): boolean => count < cap;

/**
 * After when a change needs the owner's ledger rows (an ISO date; undefined: it needs none): a late grant's cap is
 * decided over the rows written after its sale (strictly: a row of the sale's very instant, such as an earlier month's
 * grant on a clock that did not move, is taken as before it). The store reads them, oldest first, and hands them to
 * `decideCreditChange`; the balance's condition catches a row written between that read and the change.
 */
export function lateGrantSince(c: Pick<MoneyChange, 'plan'>): string | undefined {
  const asOf = c.plan?.kind === 'grant' ? c.plan.asOf : undefined;
  if (!asOf) return undefined;
  const t = Date.parse(asOf);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

type PlanMove = { after: number; plan: number; expired: number };

/**
 * How a change moves the plan credits, given the plan credits and the balance before it: the plan credits after, the
 * plan part of the change's own ledger row, and what expired (the rollover cap). Plan credits are spent first by a
 * charge and taken first by a plan payment's take-back; a pack's take-back takes the pack's credits. A late grant
 * (`asOf`) is capped as of its sale, over `later`: the owner's ledger rows written since, oldest first.
 *
 * Plan credits are the part of the balance a plan granted, so they never exceed the balance: where the pack credits
 * went below zero (a pack refunded or reversed after its credits were spent), the plan credits cover the difference,
 * and a later grant pays it first (found by the money simulation, test/sim, seeds 1 and 2: without this a pack's
 * take-back, or a grant to a balance below zero, left more plan credits than credits).
 */
export function planMove(
  c: Pick<MoneyChange, 'delta' | 'plan' | 'allowNegative'>,
  planBefore: number,
  balanceBefore: number,
  later: readonly LaterLedgerRow[] = [],
): PlanMove {
  const m = planMoveOf(c, planBefore, later);
  const cap = Math.max(balanceBefore + c.delta - m.expired, 0);
  if (m.after <= cap || m.after <= Math.min(planBefore, 0)) return m;
  const after = Math.max(cap, Math.min(planBefore, 0));
  return { after, plan: m.plan - (m.after - after), expired: m.expired };
}

/** planMove by the plan credits alone (before the balance bounds them). */
function planMoveOf(c: Pick<MoneyChange, 'delta' | 'plan' | 'allowNegative'>, planBefore: number, later: readonly LaterLedgerRow[]): PlanMove {
  const held = Math.max(planBefore, 0);
  const p = c.plan;
  if (p?.kind === 'grant') {
    // Rolls over at most one month's grant, even when one payment paid several months (a balance left outstanding);
    // the cap as the plans' published rule says it (contract/plans.ts `planCreditsAfterGrant`), as of the sale's date.
    const after = planAfterLateGrant(held, { delta: c.delta, month: p.month }, p.asOf ? later : []);
    const expired = held + c.delta - after;
    return { after, plan: c.delta, expired };
  }
  if (p?.kind === 'back') {
    const back = Math.min(Math.max(p.back, 0), Math.max(c.delta, 0));
    return { after: planBefore + back, plan: back, expired: 0 };
  }
  if (c.delta < 0 && (p?.kind === 'first' || !c.allowNegative)) {
    const spent = Math.min(held, -c.delta);
    return { after: planBefore - spent, plan: 0 - spent, expired: 0 };
  }
  return { after: planBefore, plan: 0, expired: 0 };
}

/**
 * Whether a change may be made on the account as it is, and what it makes. Refusals, in this order: a charge on an
 * account gone or being deleted ('closing'); anything else with no account ('no-account'); a job's start at its
 * owner's running-jobs cap ('busy'); a charge the balance cannot pay ('insufficient': only a charge is refused for
 * the balance, so a job's refund lands whatever the balance, and a take-back with `allowNegative` may leave it below
 * zero; a balance already below zero pays for nothing). A daily cap, where it applies, is decided after these
 * (`withinCap` on the day's count).
 */
export function decideCreditChange(
  account: AccountMoney | undefined,
  c: MoneyChange,
  /** A late grant's ledger rows written since its sale (`lateGrantSince`), oldest first. */
  later: readonly LaterLedgerRow[] = [],
): MoneyDecision {
  const charge = isCharge(c);
  if (!account) return charge ? { ok: false, why: 'closing' } : { ok: false, why: 'no-account' };
  // The deletion marks the account before it erases anything: a charge made after the mark would bill a job whose
  // account is about to go (one made before it holds a place in activeJobs, and the mark waits for that).
  if (charge && account.deleting) return { ok: false, why: 'closing' };
  const a = c.activeJobs;
  if (a && 'cap' in a && !withinCap(account.activeJobs, a.cap)) return { ok: false, why: 'busy', active: account.activeJobs };
  const move = planMove(c, account.planCredits, account.credits, later);
  const balance = account.credits + c.delta - move.expired;
  if (charge && balance < 0) return { ok: false, why: 'insufficient', balance: account.credits };
  const expiry: LedgerRow[] = move.expired > 0 ? [{ reason: 'plan-expiry', delta: -move.expired, plan: -move.expired, balance: account.credits - move.expired }] : [];
  return {
    ok: true,
    balance,
    planCredits: move.after,
    planSpent: charge ? 0 - move.plan : 0,
    rows: [...expiry, { reason: c.reason, delta: c.delta, plan: move.plan, ...(c.plan?.kind === 'grant' ? { month: c.plan.month } : {}), balance }],
  };
}

/** A job's charge: its cost, under its kind (image, video). Plan credits go first (`planSpent` is its `planCost`). */
export function jobCharge(job: { cost: number; kind: 'image' | 'video' }): Pick<MoneyChange, 'delta' | 'reason'> {
  return { delta: -job.cost, reason: job.kind };
}

/** A job's refund: its whole cost back, the plan credits its charge spent back as plan credits. */
export function jobRefund(job: { cost: number; planCost?: number }): Pick<MoneyChange, 'delta' | 'reason' | 'plan'> {
  return { delta: job.cost, reason: 'refund', plan: { kind: 'back', back: job.planCost ?? 0 } };
}

/**
 * What a batch's failed parts give back, with its success: each failed part's price (the batch's cost is one price per
 * image; 0: none failed).
 */
export function batchFailedCredits(job: { cost: number; batch?: ReadonlyArray<{ failed?: string }> }): number {
  const failed = job.batch?.filter((b) => b.failed).length ?? 0;
  return failed ? (job.cost / job.batch!.length) * failed : 0;
}

/**
 * A batch's partial refund (`credits` of its cost, landing with its success): the images kept spent plan credits first
 * (as the charge did), so what comes back is plan credits only beyond what they spent.
 */
export function jobPartRefund(job: { cost: number; planCost?: number }, credits: number): Pick<MoneyChange, 'delta' | 'reason' | 'plan'> {
  return { delta: credits, reason: 'refund', plan: { kind: 'back', back: Math.max(0, (job.planCost ?? 0) - (job.cost - credits)) } };
}

/** A captured pack's credit. */
export function purchaseCredit(order: { credits: number }): Pick<MoneyChange, 'delta' | 'reason'> {
  return { delta: order.credits, reason: 'purchase' };
}

/**
 * The plan and months a billing payment paid, and so its credits: the subscription's own plan first (several months
 * when a balance was left outstanding), else (not, or no longer, the owner's plan: a plan changed since the payment was
 * billed, which may have collected months left outstanding on the earlier plan) the plan at that price, or the plan
 * whose price it is a multiple of (found by the money simulation, seed 1: two months of Starter paid, then a change to
 * Creator, were never granted). Undefined: it pays for no plan of ours.
 */
export function salePaysFor(
  amount: { value: string; currency: string },
  /** The subscription's own plans, most likely first (after an approved change: the next plan, then the current). */
  ...planIds: (string | undefined)[]
): { plan: Plan; months: number; credits: number; monthCredits: number } | undefined {
  const cents = toCents(amount.value);
  if (cents === undefined || cents <= 0 || amount.currency !== CURRENCY) return undefined;
  const own = planIds.map((id) => (id ? findPlan(id) : undefined)).find((p) => p && cents % p.cents === 0);
  const plan = own ?? PLANS.find((p) => p.cents === cents) ?? PLANS.find((p) => cents % p.cents === 0);
  if (!plan) return undefined;
  const months = cents / plan.cents;
  return { plan, months, credits: plan.credits * months, monthCredits: plan.credits };
}

/**
 * The moment a PayPal sale counts from for the rollover cap: the last millisecond of the second its time names. PayPal
 * gives times to the second, so a grant written earlier in that second (the month before, granted a moment before the
 * renewal) is not replayed as if it came after the sale.
 */
export function saleAsOf(time: string): string {
  const ms = Date.parse(time);
  return new Date(ms - (ms % 1000) + 999).toISOString();
}

/** A plan payment's grant: its credits, with the rollover cap of one month's grant, as of the sale's date when known. */
export function saleGrant(g: { credits: number; monthCredits: number; saleAt?: string }): Pick<MoneyChange, 'delta' | 'reason' | 'plan'> {
  return { delta: g.credits, reason: 'plan', plan: { kind: 'grant', month: g.monthCredits, ...(g.saleAt ? { asOf: g.saleAt } : {}) } };
}

/** Credits taken back in all once `refundedCents` of the order's `orderCents` went back (rounded half up). */
export function creditsFor(credits: number, refundedCents: number, orderCents: number): number {
  if (refundedCents >= orderCents) return credits;
  return Math.floor((2 * credits * refundedCents + orderCents) / (2 * orderCents));
}

/**
 * A refund's or reversal's take-back: what its new total takes beyond what the order's earlier ones took (0: nothing
 * moves), allowed below zero; a plan payment's takes plan credits first.
 */
export function takeBackChange(
  order: { creditsTakenBack?: number; subscriptionId?: string },
  t: { creditsTakenBack: number; reason: 'purchase-refund' | 'chargeback' },
): Pick<MoneyChange, 'delta' | 'reason' | 'allowNegative' | 'plan'> {
  return {
    delta: -(t.creditsTakenBack - (order.creditsTakenBack ?? 0)),
    reason: t.reason,
    allowNegative: true,
    ...(order.subscriptionId ? { plan: { kind: 'first' } as const } : {}),
  };
}
