/**
 * Every credit change is one DynamoDB transaction: the balance (conditioned on the value just read, so the
 * ledger row can record the balance after it), the ledger row, and the job or order transition it belongs
 * to. A balance never goes below zero, except when a refund or chargeback takes back purchased credits that were
 * already spent (`allowNegative`, the one path allowed to); a transition that was already made cancels the whole change.
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
}

export type CreditChangeResult =
  | { ok: true; balance: number }
  | { ok: false; why: 'insufficient'; balance: number }
  /** `failed`: the index in `with` of the first item whose condition did not hold. */
  | { ok: false; why: 'already-done'; failed: number };

const MAX_ATTEMPTS = 60;

export async function readBalance(db: DynamoDBDocumentClient, table: string, sub: string): Promise<number | undefined> {
  const res = await db.send(new GetCommand({ TableName: table, Key: { pk: keys.user(sub), sk: keys.account }, ConsistentRead: true, ProjectionExpression: 'credits' }));
  return res.Item ? Number(res.Item.credits) : undefined;
}

export async function changeCredits(db: DynamoDBDocumentClient, table: string, c: CreditChange): Promise<CreditChangeResult> {
  for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
    const expected = attempt === 0 ? c.expectedBalance : undefined;
    const before = expected ?? (await readBalance(db, table, c.sub));
    if (before === undefined) throw new Error(`No account for ${c.sub}`);
    const after = before + c.delta;
    // Refuse only on a balance read here: the caller's value may be older than a top-up.
    if (after < 0 && !c.allowNegative && expected !== undefined) continue;
    if (after < 0 && !c.allowNegative) return { ok: false, why: 'insufficient', balance: before };
    const now = new Date();
    try {
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            {
              Update: {
                TableName: table,
                Key: { pk: keys.user(c.sub), sk: keys.account },
                UpdateExpression: 'SET credits = :after',
                ConditionExpression: 'credits = :before',
                ExpressionAttributeValues: { ':before': before, ':after': after },
              },
            },
            {
              Put: {
                TableName: table,
                Item: {
                  pk: keys.user(c.sub),
                  sk: keys.ledger(now.toISOString(), newId(now)),
                  type: 'ledger',
                  delta: c.delta,
                  balance: after,
                  reason: c.reason,
                  ref: c.ref,
                  createdAt: now.toISOString(),
                },
              },
            },
            ...c.with,
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
      const failed = reasons.slice(2).findIndex((r) => r.Code === 'ConditionalCheckFailed');
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
