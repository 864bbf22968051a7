import { GetCommand, QueryCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { keys } from '../domain/keys';
import type { ConnectionStore, LiveConnection } from '../ports/live';

/** API Gateway ends every WebSocket after 2 hours: a connection whose close was missed is gone by then (TTL). */
const CONNECTION_TTL_SECONDS = 2 * 60 * 60 + 10 * 60;

/**
 * Connections in the single table: `USER#<sub>`/`CONN#<id>` so the fan-out finds a user's with one Query, and
 * `CONN#<id>`/`CONN` so $disconnect (which knows only the connection id) finds its owner. Both written and
 * deleted together, both with a TTL.
 */
export function dynamoConnectionStore(db: DynamoDBDocumentClient, table: string): ConnectionStore {
  const userItemKey = (c: { owner: string; connectionId: string }) => ({ pk: keys.user(c.owner), sk: keys.connection(c.connectionId) });
  const ownerItemKey = (connectionId: string) => ({ pk: keys.connection(connectionId), sk: keys.connectionOwner });

  return {
    async add(conn) {
      const ttl = Math.floor(Date.parse(conn.connectedAt) / 1000) + CONNECTION_TTL_SECONDS;
      const fields = { type: 'connection', connectionId: conn.connectionId, owner: conn.owner, connectedAt: conn.connectedAt, ttl };
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Put: { TableName: table, Item: { ...userItemKey(conn), ...fields } } },
            { Put: { TableName: table, Item: { ...ownerItemKey(conn.connectionId), ...fields } } },
          ],
        }),
      );
    },

    async remove(connectionId, owner) {
      let who = owner;
      if (!who) {
        const res = await db.send(new GetCommand({ TableName: table, Key: ownerItemKey(connectionId), ConsistentRead: true }));
        who = typeof res.Item?.owner === 'string' ? res.Item.owner : undefined;
      }
      await db.send(
        new TransactWriteCommand({
          TransactItems: [
            { Delete: { TableName: table, Key: ownerItemKey(connectionId) } },
            ...(who ? [{ Delete: { TableName: table, Key: userItemKey({ owner: who, connectionId }) } }] : []),
          ],
        }),
      );
    },

    async listFor(owner) {
      const now = Math.floor(Date.now() / 1000);
      const out: LiveConnection[] = [];
      let start: Record<string, unknown> | undefined;
      do {
        const res = await db.send(
          new QueryCommand({
            TableName: table,
            KeyConditionExpression: 'pk = :pk AND begins_with(sk, :conn)',
            ExpressionAttributeValues: { ':pk': keys.user(owner), ':conn': keys.connection('') },
            ExclusiveStartKey: start,
          }),
        );
        for (const item of res.Items ?? []) {
          // TTL deletion lags: an expired item is already gone.
          if (typeof item.ttl === 'number' && item.ttl < now) continue;
          out.push({ connectionId: String(item.connectionId), owner, connectedAt: String(item.connectedAt) });
        }
        start = res.LastEvaluatedKey;
      } while (start);
      return out;
    },
  };
}
