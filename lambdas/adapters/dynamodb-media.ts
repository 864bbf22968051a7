import { DeleteCommand, GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { MediaIndex, MediaItem } from '../ports/jobs';
import { createdAtOf } from '../app/ids';
import { keys } from './keys';

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
  };
}

const encodeCursor = (sk: string) => Buffer.from(sk).toString('base64url');
const decodeCursor = (c: string) => {
  const sk = Buffer.from(c, 'base64url').toString();
  return sk.startsWith('MEDIA#') ? sk : undefined;
};

export function dynamoMediaIndex(db: DynamoDBDocumentClient, table: string): MediaIndex {
  const skOf = (id: string) => {
    const createdAt = createdAtOf(id);
    return createdAt ? keys.media(createdAt, id) : undefined;
  };
  return {
    async list(owner, limit, cursor) {
      const after = cursor ? decodeCursor(cursor) : undefined;
      const res = await db.send(
        new QueryCommand({
          TableName: table,
          KeyConditionExpression: 'pk = :pk AND begins_with(sk, :media)',
          ExpressionAttributeValues: { ':pk': keys.user(owner), ':media': 'MEDIA#' },
          ScanIndexForward: false,
          Limit: limit,
          ...(after ? { ExclusiveStartKey: { pk: keys.user(owner), sk: after } } : {}),
        }),
      );
      const items = (res.Items ?? []).map((r) => toItem(owner, r));
      const last = res.LastEvaluatedKey?.sk as string | undefined;
      return { items, nextCursor: last ? encodeCursor(last) : undefined };
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
