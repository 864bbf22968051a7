import { DeleteCommand, GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { MediaIndex, MediaItem } from '../ports/jobs';
import { createdAtOf } from '../domain/ids';
import { keys } from '../domain/keys';
import { decodeCursor, encodeCursor } from './dynamodb-pages';

/** What save-job-output probed from the file, on items saved since it does. */
function probed(r: Record<string, unknown>): Pick<MediaItem, 'width' | 'height' | 'durationSeconds' | 'posterKey'> {
  return {
    ...(typeof r.width === 'number' ? { width: r.width } : {}),
    ...(typeof r.height === 'number' ? { height: r.height } : {}),
    ...(typeof r.durationSeconds === 'number' ? { durationSeconds: r.durationSeconds } : {}),
    ...(typeof r.posterKey === 'string' ? { posterKey: r.posterKey } : {}),
  };
}

function toItem(owner: string, r: Record<string, unknown>): MediaItem {
  return {
    id: String(r.id),
    owner,
    type: r.kind as MediaItem['type'],
    key: String(r.key),
    prompt: String(r.prompt ?? ''),
    model: String(r.model ?? ''),
    options: (r.options as MediaItem['options']) ?? {},
    createdAt: String(r.createdAt),
    jobId: r.jobId as string | undefined,
    ...probed(r),
  };
}

export function dynamoMediaIndex(db: DynamoDBDocumentClient, table: string): MediaIndex {
  const skOf = (id: string) => {
    const createdAt = createdAtOf(id);
    return createdAt ? keys.media(createdAt, id) : undefined;
  };
  return {
    async list(owner, limit, cursor, type) {
      let after = cursor ? decodeCursor(cursor, 'MEDIA#') : undefined;
      const items: MediaItem[] = [];
      // A kind filter would shorten DynamoDB's pages (Limit counts items before the filter), so read on until the
      // page is full; the cursor is then the last item returned, not the last one read.
      for (let reads = 0; reads < 20; reads++) {
        const res = await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :media)',
            ExpressionAttributeValues: { ':pk': keys.user(owner), ':media': 'MEDIA#' },
            ScanIndexForward: false,
            Limit: type ? Math.max(limit, 50) : limit,
            ...(after ? { ExclusiveStartKey: { pk: keys.user(owner), sk: after } } : {}),
          }),
        );
        const rows = res.Items ?? [];
        for (const [i, r] of rows.entries()) {
          if (type && r.kind !== type) continue;
          items.push(toItem(owner, r));
          if (items.length === limit) {
            const more = i < rows.length - 1 || res.LastEvaluatedKey !== undefined;
            return { items, nextCursor: more ? encodeCursor(String(r.sk)) : undefined };
          }
        }
        after = res.LastEvaluatedKey?.sk as string | undefined;
        if (!after) return { items };
      }
      return { items, nextCursor: after ? encodeCursor(after) : undefined };
    },
    async get(owner, id) {
      const sk = skOf(id);
      if (!sk) return undefined;
      const res = await db.send(new GetCommand({ TableName: table, Key: { pk: keys.user(owner), sk }, ConsistentRead: true }));
      return res.Item ? toItem(owner, res.Item) : undefined;
    },
    async remove(owner, id) {
      const sk = skOf(id);
      if (!sk) return false;
      const res = await db.send(new DeleteCommand({ TableName: table, Key: { pk: keys.user(owner), sk }, ReturnValues: 'ALL_OLD' }));
      return Boolean(res.Attributes);
    },
  };
}
