import { QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Page } from '../ports/payments';

/**
 * One page of a partition's items under a sort-key prefix, newest (highest key) first. Asks for one item more
 * than the page holds, so `last` is given only when another item really follows (no empty last page).
 */
export async function queryPage(
  db: DynamoDBDocumentClient,
  table: string,
  pk: string,
  prefix: string,
  limit: number,
  after?: string,
): Promise<Page<Record<string, unknown>>> {
  if (after !== undefined && !after.startsWith(prefix)) throw new Error(`Cursor ${after} is not under ${prefix}`);
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
  return { items, ...(more && lastItem ? { last: String(lastItem.sk) } : {}) };
}
