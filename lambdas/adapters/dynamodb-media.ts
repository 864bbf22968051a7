import { DeleteCommand, GetCommand, QueryCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { modelOfReplicate } from '../../contract/models';
import type { MediaFilter, MediaIndex, MediaItem, Share } from '../ports/jobs';
import { createdAtOf } from '../domain/ids';
import { keys } from '../domain/keys';
import { promptMatches } from '../domain/prompt-search';
import { decodeCursor, encodeCursor } from './dynamodb-pages';
import { transactIf, updateIf } from './update-if';


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
    ...(r.favorite === true ? { favorite: true } : {}),
    ...(typeof r.shareToken === 'string' ? { shareToken: r.shareToken, sharePrompt: r.sharePrompt === true } : {}),
    ...(typeof r.credits === 'number' ? { credits: r.credits } : {}),
    ...probed(r),
  };
}

/** Whether a stored media row is in the filtered list. */
function matches(r: Record<string, unknown>, f: MediaFilter): boolean {
  if (f.type && r.kind !== f.type) return false;
  if (f.favorite !== undefined && (r.favorite === true) !== f.favorite) return false;
  if (f.model && modelOfReplicate(String(r.model ?? ''))?.slug !== f.model) return false;
  if (f.words?.length && !promptMatches(String(r.prompt ?? ''), f.words)) return false;
  // The document client reads a string set as a Set.
  if (f.collection && !(r.collections instanceof Set && r.collections.has(f.collection))) return false;
  return true;
}

const shareKey = (token: string) => ({ pk: keys.share(token), sk: keys.shareItem });

/**
 * The media index: the items live under their owner (`USER#<sub>`/`MEDIA#<createdAt>#<id>`), so a user's list is one
 * Query newest first. Filters (kind, model family, starred, prompt words, collection) are applied to what the Query reads, which reads on until
 * the page is full (at most 20 reads of 50 items): a user's results are a few thousand at most, and an index per
 * filter would cost a write on every item for a list that is read a page at a time.
 */
export function dynamoMediaIndex(db: DynamoDBDocumentClient, table: string): MediaIndex {
  const skOf = (id: string) => {
    const createdAt = createdAtOf(id);
    return createdAt ? keys.media(createdAt, id) : undefined;
  };
  const itemKey = (owner: string, id: string) => {
    const sk = skOf(id);
    return sk ? { pk: keys.user(owner), sk } : undefined;
  };
  const getRow = async (owner: string, id: string) => {
    const key = itemKey(owner, id);
    if (!key) return undefined;
    const res = await db.send(new GetCommand({ TableName: table, Key: key, ConsistentRead: true }));
    return res.Item;
  };
  return {
    async list(owner, limit, cursor, filter = {}) {
      let after = cursor ? decodeCursor(cursor, 'MEDIA#') : undefined;
      const filtered = Boolean(filter.type || filter.model || filter.favorite !== undefined || filter.words?.length || filter.collection);
      const items: MediaItem[] = [];
      // A filter would shorten DynamoDB's pages (Limit counts items before the filter), so read on until the page is
      // full; the cursor is then the last item returned, not the last one read.
      for (let reads = 0; reads < 20; reads++) {
        const res = await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :media)',
            ExpressionAttributeValues: { ':pk': keys.user(owner), ':media': 'MEDIA#' },
            ScanIndexForward: false,
            Limit: filtered ? Math.max(limit, 50) : limit,
            ...(after ? { ExclusiveStartKey: { pk: keys.user(owner), sk: after } } : {}),
          }),
        );
        const rows = res.Items ?? [];
        for (const [i, r] of rows.entries()) {
          if (!matches(r, filter)) continue;
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
      const row = await getRow(owner, id);
      return row ? toItem(owner, row) : undefined;
    },
    async remove(owner, id) {
      const key = itemKey(owner, id);
      if (!key) return false;
      const res = await db.send(new DeleteCommand({ TableName: table, Key: key, ReturnValues: 'ALL_OLD' }));
      // Its share link goes with it (a share whose item is gone already answers 404: the page reads the item too).
      const token = res.Attributes?.shareToken;
      if (typeof token === 'string') await db.send(new DeleteCommand({ TableName: table, Key: shareKey(token) }));
      return Boolean(res.Attributes);
    },
    async setFavorite(owner, id, favorite) {
      const key = itemKey(owner, id);
      if (!key) return false;
      return updateIf(db, {
        TableName: table,
        Key: key,
        UpdateExpression: favorite ? 'SET favorite = :t' : 'REMOVE favorite',
        ConditionExpression: 'attribute_exists(pk)',
        ...(favorite ? { ExpressionAttributeValues: { ':t': true } } : {}),
      });
    },
    async share(owner, id, share): Promise<Share | undefined> {
      const key = itemKey(owner, id);
      if (!key) return undefined;
      for (let attempt = 0; attempt < 3; attempt++) {
        const row = await getRow(owner, id);
        if (!row) return undefined;
        const token = typeof row.shareToken === 'string' ? row.shareToken : share.token;
        const kept: Share = { ...share, token, owner, mediaId: id };
        // The share and the item's token change together, conditioned on the token the item had when read.
        const done = await transactIf(
          db,
          {
            TransactItems: [
              {
                Update: {
                  TableName: table,
                  Key: key,
                  UpdateExpression: 'SET shareToken = :token, sharePrompt = :prompt',
                  ConditionExpression:
                    typeof row.shareToken === 'string' ? 'shareToken = :token' : 'attribute_exists(pk) AND attribute_not_exists(shareToken)',
                  ExpressionAttributeValues: { ':token': token, ':prompt': kept.showPrompt },
                },
              },
              {
                Put: {
                  TableName: table,
                  Item: { ...shareKey(token), type: 'share', owner, mediaId: id, showPrompt: kept.showPrompt, createdAt: kept.createdAt },
                },
              },
            ],
          },
          0,
        );
        if (done) return kept;
      }
      return undefined;
    },
    async unshare(owner, id) {
      const row = await getRow(owner, id);
      const token = row?.shareToken;
      if (!row || typeof token !== 'string') return false;
      return transactIf(
        db,
        {
          TransactItems: [
            {
              Update: {
                TableName: table,
                Key: itemKey(owner, id)!,
                UpdateExpression: 'REMOVE shareToken, sharePrompt',
                ConditionExpression: 'shareToken = :token',
                ExpressionAttributeValues: { ':token': token },
              },
            },
            { Delete: { TableName: table, Key: shareKey(token) } },
          ],
        },
        0,
      );
    },
    async shareOf(token) {
      const res = await db.send(new GetCommand({ TableName: table, Key: shareKey(token) }));
      const r = res.Item;
      if (!r) return undefined;
      return { token, owner: String(r.owner), mediaId: String(r.mediaId), showPrompt: r.showPrompt === true, createdAt: String(r.createdAt) };
    },
  };
}
