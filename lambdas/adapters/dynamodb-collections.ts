import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { GetCommand, QueryCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Collection, CollectionIndex } from '../ports/collections';
import { createdAtOf } from '../domain/ids';
import { keys } from '../domain/keys';
import { transactIf, transactOrFailedChecks, updateIf } from './update-if';

/**
 * The collections index: each collection is an item under its owner (`COLLECTION#<id>`), counted by the owner's
 * `COLLECTIONS` item in the same transaction that creates one (so two requests at once cannot pass the cap), and an
 * item's memberships are a string set `collections` on the media item itself: a gallery filtered by collection is the
 * media Query with one more filter, and deleting the item takes its memberships with it. Removing a collection
 * counts it off in one transaction, then takes its id off its members (an id left behind by a removal cut short names
 * no collection: the filter of an unknown collection is 404, and ids are never reused).
 */
export function dynamoCollectionIndex(db: DynamoDBDocumentClient, table: string): CollectionIndex {
  const toCollection = (owner: string, r: Record<string, unknown>): Collection => ({
    id: String(r.id),
    owner,
    name: String(r.name),
    createdAt: String(r.createdAt),
  });
  const collectionKey = (owner: string, id: string) => ({ pk: keys.user(owner), sk: keys.collection(id) });
  return {
    async list(owner) {
      const items: Collection[] = [];
      let after: Record<string, unknown> | undefined;
      do {
        const res = await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :c)',
            ExpressionAttributeValues: { ':pk': keys.user(owner), ':c': keys.collection('') },
            ExclusiveStartKey: after,
          }),
        );
        items.push(...(res.Items ?? []).map((r) => toCollection(owner, r)));
        after = res.LastEvaluatedKey;
      } while (after);
      return items.sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    },
    async get(owner, id) {
      const res = await db.send(new GetCommand({ TableName: table, Key: collectionKey(owner, id), ConsistentRead: true }));
      return res.Item ? toCollection(owner, res.Item) : undefined;
    },
    async create(c, max) {
      const failed = await transactOrFailedChecks(db, {
        TransactItems: [
          {
            Update: {
              TableName: table,
              Key: { pk: keys.user(c.owner), sk: keys.collectionCount },
              UpdateExpression: 'SET n = if_not_exists(n, :zero) + :one',
              ConditionExpression: 'attribute_not_exists(n) OR n < :max',
              ExpressionAttributeValues: { ':zero': 0, ':one': 1, ':max': max },
            },
          },
          {
            Put: {
              TableName: table,
              Item: { ...collectionKey(c.owner, c.id), type: 'collection', id: c.id, name: c.name, createdAt: c.createdAt },
              ConditionExpression: 'attribute_not_exists(pk)',
            },
          },
        ],
      });
      if (!failed) return true;
      if (failed.failed[0]) return false;
      throw failed.error;
    },
    async rename(owner, id, name) {
      try {
        const res = await db.send(
          new UpdateCommand({
            TableName: table,
            Key: collectionKey(owner, id),
            UpdateExpression: 'SET #name = :name',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeNames: { '#name': 'name' },
            ExpressionAttributeValues: { ':name': name },
            ReturnValues: 'ALL_NEW',
          }),
        );
        return res.Attributes ? toCollection(owner, res.Attributes) : undefined;
      } catch (err) {
        if (err instanceof ConditionalCheckFailedException) return undefined;
        throw err;
      }
    },
    async remove(owner, id) {
      return transactIf(
        db,
        {
          TransactItems: [
            { Delete: { TableName: table, Key: collectionKey(owner, id), ConditionExpression: 'attribute_exists(pk)' } },
            {
              Update: {
                TableName: table,
                Key: { pk: keys.user(owner), sk: keys.collectionCount },
                UpdateExpression: 'ADD n :minus',
                ExpressionAttributeValues: { ':minus': -1 },
              },
            },
          ],
        },
        0,
      );
    },
    async clearMembers(owner, id) {
      let after: Record<string, unknown> | undefined;
      do {
        const res = await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :media)',
            FilterExpression: 'contains(collections, :id)',
            ExpressionAttributeValues: { ':pk': keys.user(owner), ':media': 'MEDIA#', ':id': id },
            ProjectionExpression: 'pk, sk',
            ExclusiveStartKey: after,
          }),
        );
        for (const row of res.Items ?? []) {
          // An item deleted meanwhile is no member any more: the condition keeps the update from making a stub of it.
          await updateIf(db, {
            TableName: table,
            Key: { pk: row.pk, sk: row.sk },
            UpdateExpression: 'DELETE collections :c',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':c': new Set([id]) },
          });
        }
        after = res.LastEvaluatedKey;
      } while (after);
    },
    async setMember(owner, collectionId, mediaId, member) {
      const createdAt = createdAtOf(mediaId);
      if (!createdAt) return 'no-media';
      const failed = await transactOrFailedChecks(db, {
        TransactItems: [
          { ConditionCheck: { TableName: table, Key: collectionKey(owner, collectionId), ConditionExpression: 'attribute_exists(pk)' } },
          {
            Update: {
              TableName: table,
              Key: { pk: keys.user(owner), sk: keys.media(createdAt, mediaId) },
              // ADD makes the set when absent; DELETE of the last element removes the attribute (DynamoDB keeps no empty set).
              UpdateExpression: member ? 'ADD collections :c' : 'DELETE collections :c',
              ConditionExpression: 'attribute_exists(pk)',
              ExpressionAttributeValues: { ':c': new Set([collectionId]) },
            },
          },
        ],
      });
      if (!failed) return 'done';
      if (failed.failed[0]) return 'no-collection';
      if (failed.failed[1]) return 'no-media';
      throw failed.error;
    },
  };
}
