import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { Messages } from '../../contract/errors';
import { InvalidInput } from '../domain/errors';
import type { Page } from '../ports/page';

/** A page's cursor is the last item's sort key, opaque to callers. */
export const encodeCursor = (sk: string) => Buffer.from(sk).toString('base64url');

/** The sort key a cursor stands for; a cursor that is not one of ours under `prefix` is the caller's mistake (400). */
export function decodeCursor(cursor: string, prefix: string): string {
  const sk = Buffer.from(cursor, 'base64url').toString('utf8');
  if (!sk.startsWith(prefix) || sk.length > 1024 || encodeCursor(sk) !== cursor) throw new InvalidInput(Messages.invalidCursor);
  return sk;
}

/**
 * One page of a partition's items under a sort-key prefix, newest (highest key) first. Asks for one item more
 * than the page holds, so a cursor is given only when another item really follows (no empty last page).
 */
export async function queryPage(
  db: DynamoDBDocumentClient,
  table: string,
  pk: string,
  prefix: string,
  limit: number,
  cursor?: string,
): Promise<Page<Record<string, unknown>>> {
  const after = cursor === undefined ? undefined : decodeCursor(cursor, prefix);
  const res = await db.send(
    new QueryCommand({
      TableName: table,
      KeyConditionExpression: 'pk = :pk AND begins_with(sk, :prefix)',
      ExpressionAttributeValues: { ':pk': pk, ':prefix': prefix },
      ScanIndexForward: false,
      Limit: limit + 1,
      ...(after ? { ExclusiveStartKey: { pk, sk: after } } : {}),
    }),
  );
  const found = res.Items ?? [];
  const items = found.slice(0, limit);
  const more = found.length > limit || (res.LastEvaluatedKey !== undefined && items.length > 0);
  const lastItem = items[items.length - 1];
  return { items, ...(more && lastItem ? { nextCursor: encodeCursor(String(lastItem.sk)) } : {}) };
}
