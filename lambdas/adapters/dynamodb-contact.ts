import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { GetCommand, PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { gcra } from '../domain/rate-limit';
import type { ContactStore } from '../ports/contact';

/** Attempts before concurrent writers to the same key count as too many requests. */
const MAX_ATTEMPTS = 8;

const rateKey = (key: string) => ({ pk: `RATE#contact#${key}`, sk: 'GCRA' });

export function dynamoContactStore(db: DynamoDBDocumentClient, table: string): ContactStore {
  return {
    /**
     * Reads each key's state, decides with GCRA, and writes every new state in one transaction that
     * holds only if no other request changed a key in between (optimistic; retried on a race).
     */
    async takeAllowance(allowances, now) {
      for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
        const seen = await Promise.all(
          allowances.map(async (a) => {
            const res = await db.send(new GetCommand({ TableName: table, Key: rateKey(a.key), ConsistentRead: true }));
            return typeof res.Item?.tat === 'number' ? (res.Item.tat as number) : undefined;
          }),
        );
        const decisions = allowances.map((a, i) => ({ a, tat: seen[i], d: gcra(seen[i], now, a) }));
        const refused = decisions.flatMap(({ d }) => (d.allowed ? [] : [d.retryAfterMs]));
        if (refused.length) return { allowed: false, retryAfterMs: Math.max(...refused) };
        try {
          await db.send(
            new TransactWriteCommand({
              TransactItems: decisions.map(({ a, tat, d }) => {
                const nextTat = d.allowed ? d.nextTat : now;
                return {
                  Put: {
                    TableName: table,
                    Item: { ...rateKey(a.key), tat: nextTat, ttl: Math.ceil((nextTat + a.periodMs) / 1000) },
                    ...(tat === undefined
                      ? { ConditionExpression: 'attribute_not_exists(tat)' }
                      : { ConditionExpression: 'tat = :seen', ExpressionAttributeValues: { ':seen': tat } }),
                  },
                };
              }),
            }),
          );
          return { allowed: true };
        } catch (err) {
          const raced =
            err instanceof TransactionCanceledException &&
            (err.CancellationReasons ?? []).some((r) => r.Code === 'ConditionalCheckFailed' || r.Code === 'TransactionConflict');
          if (!raced) throw err;
          // Another request for the same key won the race: back off a little, re-read and decide again.
          await new Promise((r) => setTimeout(r, 10 + Math.random() * 40 * (attempt + 1)));
        }
      }
      // Still racing after several tries: many requests for the same key at once.
      return { allowed: false, retryAfterMs: 1000 };
    },
    async save(m) {
      await db.send(
        new PutCommand({ TableName: table, Item: { pk: `CONTACT#${m.id}`, sk: 'CONTACT', type: 'contact', ...m } }),
      );
    },
  };
}
