import { ConditionalCheckFailedException, TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import {
  TransactWriteCommand,
  UpdateCommand,
  type DynamoDBDocumentClient,
  type TransactWriteCommandInput,
  type UpdateCommandInput,
} from '@aws-sdk/lib-dynamodb';

/** Sends a conditional update: true when it was made, false when its ConditionExpression did not hold. */
export async function updateIf(db: DynamoDBDocumentClient, input: UpdateCommandInput & { ConditionExpression: string }): Promise<boolean> {
  try {
    await db.send(new UpdateCommand(input));
    return true;
  } catch (err) {
    if (err instanceof ConditionalCheckFailedException) return false;
    throw err;
  }
}

/**
 * Sends a transaction: true when it was written, false when it was cancelled because the condition of the item
 * at index `guard` did not hold (of any item, with 'any'). Any other failure is thrown.
 */
export async function transactIf(db: DynamoDBDocumentClient, input: TransactWriteCommandInput, guard: number | 'any'): Promise<boolean> {
  const cancelled = await transactOrFailedChecks(db, input);
  if (!cancelled) return true;
  if (guard === 'any' ? cancelled.failed.some(Boolean) : cancelled.failed[guard]) return false;
  throw cancelled.error;
}

/**
 * Sends a transaction: undefined when it was written; when a condition did not hold, one flag per item (true: its
 * condition failed) and the cancellation. Any other failure is thrown.
 */
export async function transactOrFailedChecks(
  db: DynamoDBDocumentClient,
  input: TransactWriteCommandInput,
): Promise<{ failed: boolean[]; error: TransactionCanceledException } | undefined> {
  for (let attempt = 0; ; attempt++) {
    try {
      await db.send(new TransactWriteCommand(input));
      return undefined;
    } catch (err) {
      if (!(err instanceof TransactionCanceledException)) throw err;
      const reasons = err.CancellationReasons ?? [];
      if (reasons.some((r) => r.Code === 'ConditionalCheckFailed')) return { failed: reasons.map((r) => r.Code === 'ConditionalCheckFailed'), error: err };
      // Another transaction held one of the items (e.g. the account item, which a charge of the same owner also
      // writes): nothing was written, so it is safe to try again.
      if (attempt < CONFLICT_RETRIES && reasons.some((r) => r.Code === 'TransactionConflict')) {
        await new Promise((r) => setTimeout(r, Math.random() * (10 + attempt * 20)));
        continue;
      }
      throw err;
    }
  }
}

const CONFLICT_RETRIES = 10;
