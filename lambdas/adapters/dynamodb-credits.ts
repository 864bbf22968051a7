/**
 * Every credit change is one DynamoDB transaction: the balance (conditioned on the value just read, so the
 * ledger row can record the balance after it), the ledger row, and the job or order transition it belongs
 * to. What a change may do and what it makes (charge admission, plan credits spent first and given back, a grant's
 * rollover cap, the ledger rows) is decided by `domain/money-rules.ts` on the account as read; this adapter turns the
 * decision into the transaction and its conditions, which hold it atomically: the balance and plan credits as read,
 * `attribute_not_exists(deleting)` for a charge, `activeJobs < cap` for a job's start. A transition that was already
 * made cancels the whole change.
 */
import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { TransactWriteCommandInput } from '@aws-sdk/lib-dynamodb';
import type { LedgerReason } from '../../contract/payments';
import { newId } from '../domain/ids';
import { decideCreditChange, isCharge, lateGrantSince, type AccountMoney, type MoneyChange, type PlanRule } from '../domain/money-rules';
import { keys } from '../domain/keys';
import type { LaterLedgerRow } from '../domain/plan-rollover';

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
  /** How the change moves plan credits (domain/money-rules' PlanRule; absent: a charge spends them first). */
  plan?: PlanRule;
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
 * The account item's update for a decided change: the balance and plan credits as decided, each conditioned on the
 * value the decision was made from; a charge on the deletion mark's absence; a job's start on its owner's running jobs
 * being below the cap (money-rules' `withinCap`, as a condition).
 */
function accountUpdate(c: CreditChange, read: AccountMoney, decided: { balance: number; planCredits: number }) {
  const a = c.activeJobs;
  const values: Record<string, unknown> = { ':before': read.credits, ':after': decided.balance };
  let update = 'SET credits = :after';
  let condition = 'credits = :before';
  if (decided.planCredits !== read.planCredits) {
    // Conditioned like the balance: the split read is the split changed.
    update += ', planCredits = :planAfter';
    condition += read.planCredits === 0 ? ' AND (attribute_not_exists(planCredits) OR planCredits = :planBefore)' : ' AND planCredits = :planBefore';
    values[':planBefore'] = read.planCredits;
    values[':planAfter'] = decided.planCredits;
  }
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
  const change: MoneyChange = c;
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    // The whole account must be read whenever the rules look past the balance: anything that takes credits (a charge
    // spends plan credits first and meets the deletion mark; a take-back moves the plan credits its pack no longer
    // covers), the running-jobs cap, or a plan change. Otherwise the caller's balance saves a read; the
    // `credits = :before` condition keeps that safe (a stale value only costs a retry with a fresh read).
    const expected = attempt === 0 && !c.plan && c.delta >= 0 && !c.activeJobs ? c.expectedBalance : undefined;
    const read = expected === undefined ? await readAccount(db, table, c.sub) : { credits: expected, planCredits: 0, activeJobs: 0, deleting: false };
    // A late grant is decided over the owner's ledger rows written since its sale (a few: a month's jobs at most), read
    // anew on each attempt; the balance's condition catches a row written between this read and the transaction.
    const since = lateGrantSince(change);
    const later = since && read ? await ledgerSince(db, table, c.sub, since) : [];
    const decided = decideCreditChange(read, change, later);
    if (!decided.ok) return decided;
    const now = new Date();
    // Expiry first, a millisecond earlier, so the ledger reads in the order things happened.
    const rows = decided.rows.map((row, i) => {
      const at = new Date(now.getTime() - (decided.rows.length - 1 - i));
      return {
        Put: {
          TableName: table,
          Item: {
            pk: keys.user(c.sub),
            sk: keys.ledger(at.toISOString(), newId(at)),
            type: 'ledger',
            delta: row.delta,
            ...(row.plan ? { plan: row.plan } : {}),
            ...(row.month !== undefined ? { month: row.month } : {}),
            balance: row.balance,
            reason: row.reason,
            ref: c.ref,
            createdAt: at.toISOString(),
          },
        },
      };
    });
    const withItems =
      c.notePlanCostOn === undefined ? c.with : c.with.map((w, i) => (i === c.notePlanCostOn && w.Put ? { Put: { ...w.Put, Item: { ...w.Put.Item, planCost: decided.planSpent } } } : w));
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [{ Update: { TableName: table, Key: { pk: keys.user(c.sub), sk: keys.account }, ...accountUpdate(c, read!, decided) } }, ...rows, ...withItems],
        }),
      );
      return { ok: true, balance: decided.balance };
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) {
        if ((err as { name?: string }).name === 'TransactionConflictException') {
          await backoff(attempt);
          continue;
        }
        throw err;
      }
      const reasons = err.CancellationReasons ?? [];
      // The transition (items after the balance and the ledger rows) was already made, or a limit that travels with
      // it was reached: nothing to do.
      const failed = reasons.slice(1 + rows.length).findIndex((r) => r.Code === 'ConditionalCheckFailed');
      if (failed >= 0) return { ok: false, why: 'already-done', failed };
      // The balance moved under us, or another transaction held the item: read again and retry.
      await backoff(attempt);
    }
  }
  throw new Error(`Credit change for ${c.sub} did not settle after ${MAX_ATTEMPTS} attempts`);
}

/** The owner's ledger rows written after `since` (an ISO date), oldest first (their reason, delta, plan part, a grant's month). */
async function ledgerSince(db: DynamoDBDocumentClient, table: string, sub: string, since: string): Promise<LaterLedgerRow[]> {
  const rows: LaterLedgerRow[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await db.send(
      new QueryCommand({
        TableName: table,
        KeyConditionExpression: 'pk = :pk AND sk BETWEEN :from AND :to',
        ExpressionAttributeValues: { ':pk': keys.user(sub), ':from': keys.ledger(since, '\uffff'), ':to': keys.ledger('\uffff', '') },
        ProjectionExpression: 'reason, delta, #plan, #month',
        ExpressionAttributeNames: { '#plan': 'plan', '#month': 'month' },
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    for (const r of res.Items ?? []) {
      rows.push({ reason: String(r.reason), delta: Number(r.delta ?? 0), ...(r.plan !== undefined ? { plan: Number(r.plan) } : {}), ...(r.month !== undefined ? { month: Number(r.month) } : {}) });
    }
    start = res.LastEvaluatedKey;
  } while (start);
  return rows;
}

function backoff(attempt: number): Promise<void> {
  const ms = Math.min(200, 5 + attempt * 5) * Math.random();
  return new Promise((r) => setTimeout(r, ms));
}
