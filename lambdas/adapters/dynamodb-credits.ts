/**
 * Every credit change is one DynamoDB transaction: the balance (conditioned on the value just read, so the
 * ledger row can record the balance after it), the ledger row, and the job or order transition it belongs
 * to. Two kinds of credits make one balance: `credits` is the whole balance and `planCredits` the part of it a plan
 * granted (the rest is pack and welcome credits, which never expire). A charge spends plan credits first and notes how
 * many on its job (`planCost`), so a refund gives them back to the kind they came from; a plan's grant rolls over at
 * most one month's grant (the rest expires, on its own ledger row in the same transaction); a billing payment's
 * claw-back takes plan credits first. Every ledger row says how much of its delta was plan credits (`plan`). Only a
 * charge is refused below zero: a change that gives credits back (a job's refund) lands whatever the balance,
 * so a job still ends after a claw-back left the balance negative; a refund or chargeback may take back purchased
 * credits that were already spent (`allowNegative`). A charge is also refused while the account is being deleted (its
 * `deleting` mark), so a generation and a deletion exclude each other. A transition that was already made cancels the
 * whole change.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { LedgerReason } from '../../contract/payments';
import { newId } from '../domain/ids';
import { keys } from '../domain/keys';

export type TransactItem = NonNullable<TransactWriteCommandInput['TransactItems']>[number];

export interface CreditChange {
  sub: string;
  delta: number;
  reason: LedgerReason;
  /** What the change belongs to (job id, order id). */
  ref: string;
  /** The transition that must happen together with the change; its conditions guard against doing it twice. */
  with: TransactItem[];
  /**
   * The balance the caller has just read, used instead of reading it again on the first attempt. The
   * `credits = :before` condition keeps this safe: a stale value only costs a retry with a fresh read.
   */
  expectedBalance?: number;
  /** Only for taking back purchased credits (refund, chargeback): the balance may go below zero. */
  allowNegative?: boolean;
  /**
   * The owner's running jobs (`activeJobs` on the account item, the queue's counter), moved in the same update as the
   * balance: a charge starting a job adds one below `cap` (refused with why 'busy' at the cap), a refund ending one
   * takes it off. One item can appear once in a transaction, hence here and not as another item in `with`.
   */
  activeJobs?: { add: 1; cap: number } | { add: -1 };
  /**
   * How the change moves plan credits (absent: a charge spends them first, anything else leaves them):
   * - grant: `delta` is a month's grant; what was left rolls over up to one grant, the rest expires;
   * - first: a take-back (allowNegative) takes plan credits first;
   * - back: a job's refund gives back `back` of its delta as plan credits (what its charge took from them).
   */
  plan?: { kind: 'grant'; month: number } | { kind: 'first' } | { kind: 'back'; back: number };
  /** The index in `with` of a Put whose item records the plan credits a charge spent (`planCost`). */
  notePlanCostOn?: number;
}

export type CreditChangeResult =
  | { ok: true; balance: number }
  | { ok: false; why: 'insufficient'; balance: number }
  /** The owner already has `activeJobs.cap` jobs running. */
  | { ok: false; why: 'busy'; active: number }
  /** `failed`: the index in `with` of the first item whose condition did not hold. */
  | { ok: false; why: 'already-done'; failed: number }
  /** A charge on an account being deleted (or already gone): nothing changed. */
  | { ok: false; why: 'closing' }
  /** No account item: a refund or credit has nowhere to land. */
  | { ok: false; why: 'no-account' };

const MAX_ATTEMPTS = 60;

export async function readBalance(db: DynamoDBDocumentClient, table: string, sub: string): Promise<number | undefined> {
  return (await readAccount(db, table, sub))?.credits;
}

/** The account's whole balance and its plan part (both 0 on an account that has none yet). */
export async function readBalances(db: DynamoDBDocumentClient, table: string, sub: string): Promise<{ credits: number; planCredits: number } | undefined> {
  const a = await readAccount(db, table, sub);
  return a ? { credits: a.credits, planCredits: a.planCredits } : undefined;
}

async function readAccount(
  db: DynamoDBDocumentClient,
  table: string,
  sub: string,
): Promise<{ credits: number; planCredits: number; activeJobs: number; deleting: boolean } | undefined> {
  const res = await db.send(
    new GetCommand({ TableName: table, Key: { pk: keys.user(sub), sk: keys.account }, ConsistentRead: true, ProjectionExpression: 'credits, planCredits, activeJobs, deleting' }),
  );
  return res.Item
    ? { credits: Number(res.Item.credits ?? 0), planCredits: Number(res.Item.planCredits ?? 0), activeJobs: Number(res.Item.activeJobs ?? 0), deleting: res.Item.deleting === true }
    : undefined;
}

/**
 * How a change moves the plan credits, given the balance and plan credits before it: the plan credits after, the
 * plan part of the change's own ledger row, and what expired (a grant's rollover cap). Plan credits are the part of the
 * balance a plan granted, so they never exceed the balance: where the pack credits went below zero (a pack refunded
 * or reversed after its credits were spent), the plan credits cover the difference, and a later grant pays it first.
 */
export function planMove(c: Pick<CreditChange, 'delta' | 'plan' | 'allowNegative'>, planBefore: number, balanceBefore: number): { after: number; plan: number; expired: number } {
  const m = planMoveOf(c, planBefore);
  // Found by the money simulation (test/sim): without this a pack's claw-back, or a grant to a balance below zero,
  // left more plan credits than credits.
  const cap = Math.max(balanceBefore + c.delta - m.expired, 0);
  if (m.after <= cap || m.after <= Math.min(planBefore, 0)) return m;
  const after = Math.max(cap, Math.min(planBefore, 0));
  return { after, plan: m.plan - (m.after - after), expired: m.expired };
}

function planMoveOf(c: Pick<CreditChange, 'delta' | 'plan' | 'allowNegative'>, planBefore: number): { after: number; plan: number; expired: number } {
  const held = Math.max(planBefore, 0);
  const p = c.plan;
  if (p?.kind === 'grant') {
    // Rolls over at most one month's grant, even when one payment paid several months (a balance left outstanding).
    const after = Math.min(held, p.month) + c.delta;
    const expired = held + c.delta - after;
    return { after, plan: c.delta, expired };
  }
  if (p?.kind === 'back') {
    const back = Math.min(Math.max(p.back, 0), Math.max(c.delta, 0));
    return { after: planBefore + back, plan: back, expired: 0 };
  }
  if (c.delta < 0 && (p?.kind === 'first' || !c.allowNegative)) {
    const spent = Math.min(held, -c.delta);
    return { after: planBefore - spent, plan: -spent, expired: 0 };
  }
  return { after: planBefore, plan: 0, expired: 0 };
}

/** A change that takes credits from the owner for something they asked for (a job), as opposed to giving them back. */
const isCharge = (c: CreditChange) => c.delta < 0 && !c.allowNegative;

/** The account item's update for a change: the balance, and the running-jobs counter when the change moves it. */
function accountUpdate(c: CreditChange, before: number, after: number, plan: { before: number; after: number }) {
  const a = c.activeJobs;
  const values: Record<string, unknown> = { ':before': before, ':after': after };
  let update = 'SET credits = :after';
  let condition = 'credits = :before';
  if (plan.after !== plan.before) {
    // Conditioned like the balance: the split read is the split changed.
    update += ', planCredits = :planAfter';
    condition += plan.before === 0 ? ' AND (attribute_not_exists(planCredits) OR planCredits = :planBefore)' : ' AND planCredits = :planBefore';
    values[':planBefore'] = plan.before;
    values[':planAfter'] = plan.after;
  }
  // The deletion marks the account before it erases anything: a charge made after the mark would bill a job whose
  // account is about to go (one made before it holds a place in activeJobs, and the mark waits for that).
  if (isCharge(c)) condition += ' AND attribute_not_exists(deleting)';
  if (a) {
    update += ' ADD activeJobs :active';
    values[':active'] = a.add;
    if ('cap' in a) {
      condition += ' AND (attribute_not_exists(activeJobs) OR activeJobs < :cap)';
      values[':cap'] = a.cap;
    }
  }
  return { UpdateExpression: update, ConditionExpression: condition, ExpressionAttributeValues: values };
}

export async function changeCredits(db: DynamoDBDocumentClient, table: string, c: CreditChange): Promise<CreditChangeResult> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    // The plan part must be read whenever the change may move it: anything that takes credits (a charge spends plan
    // credits first, a take-back those its pack no longer covers) or a plan change.
    const expected = attempt === 0 && !c.plan && c.delta >= 0 ? c.expectedBalance : undefined;
    const read = expected === undefined ? await readAccount(db, table, c.sub) : undefined;
    const before = expected ?? read?.credits;
    // Gone (deleted, or never made): a charge is refused like one on an account being deleted; anything else has
    // nowhere to land, which its caller reports.
    if (before === undefined) return isCharge(c) ? { ok: false, why: 'closing' } : { ok: false, why: 'no-account' };
    if (read?.deleting && isCharge(c)) return { ok: false, why: 'closing' };
    // The queue is full as read; the update's own condition catches a start that races this read.
    const cap = c.activeJobs && 'cap' in c.activeJobs ? c.activeJobs.cap : undefined;
    if (read && cap !== undefined && read.activeJobs >= cap) return { ok: false, why: 'busy', active: read.activeJobs };
    const plan = planMove(c, read?.planCredits ?? 0, before);
    const after = before + c.delta - plan.expired;
    // Only a charge is refused for the balance: a refund (delta >= 0) lands even below zero.
    const short = isCharge(c) && after < 0;
    // Refuse only on a balance read here: the caller's value may be older than a top-up.
    if (short && expected !== undefined) continue;
    if (short) return { ok: false, why: 'insufficient', balance: before };
    const now = new Date();
    const planBefore = read?.planCredits ?? 0;
    const ledgerRow = (reason: LedgerReason, delta: number, planDelta: number, balance: number, at: Date) => ({
      Put: {
        TableName: table,
        Item: {
          pk: keys.user(c.sub),
          sk: keys.ledger(at.toISOString(), newId(at)),
          type: 'ledger',
          delta,
          ...(planDelta ? { plan: planDelta } : {}),
          balance,
          reason,
          ref: c.ref,
          createdAt: at.toISOString(),
        },
      },
    });
    // Expiry first, a millisecond earlier, so the ledger reads in the order things happened.
    const expiry = plan.expired > 0 ? [ledgerRow('plan-expiry', -plan.expired, -plan.expired, before - plan.expired, new Date(now.getTime() - 1))] : [];
    const withItems = c.notePlanCostOn === undefined ? c.with : c.with.map((w, i) => (i === c.notePlanCostOn && w.Put ? { Put: { ...w.Put, Item: { ...w.Put.Item, planCost: -plan.plan } } } : w));
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: table,
                Key: { pk: keys.user(c.sub), sk: keys.account },
                ...accountUpdate(c, before, after, { before: planBefore, after: plan.after }),
              },
            },
            ledgerRow(c.reason, c.delta, plan.plan, after, now),
            ...expiry,
            ...withItems,
          ],
        }),
      );
      return { ok: true, balance: after };
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) {
        if ((err as { name?: string }).name === 'TransactionConflictException') {
          await backoff(attempt);
          continue;
        }
        throw err;
      }
      const reasons = err.CancellationReasons ?? [];
      // The transition (items after the balance and the ledger row) was already made, or a limit that travels with
      // it was reached: nothing to do.
      const failed = reasons.slice(2 + expiry.length).findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed >= 0) return { ok: false, why: 'already-done', failed };
      // The balance moved under us, or another transaction held the item: read again and retry.
      await backoff(attempt);
    }
  }
  throw new Error(`Credit change for ${c.sub} did not settle after ${MAX_ATTEMPTS} attempts`);
}

function backoff(attempt: number): Promise<void> {
  const ms = Math.min(200, 5 + attempt * 5) * Math.random();
  return new Promise((r) => setTimeout(r, ms));
}
