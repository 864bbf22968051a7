import { TransactionCanceledException } from '@aws-sdk/client-dynamodb';
import { PutCommand, TransactWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ContactStore } from '../ports/contact';

export function dynamoContactStore(db: DynamoDBDocumentClient, table: string): ContactStore {
  return {
    async takeAllowance(limits, windowStart, windowSeconds) {
      try {
        await db.send(
          new TransactWriteCommand({
            TransactItems: limits.map(({ key, max }) => ({
              Update: {
                TableName: table,
                Key: { pk: `RATE#contact#${key}`, sk: `WINDOW#${windowStart}` },
                UpdateExpression: 'ADD n :one SET #ttl = :ttl',
                ConditionExpression: 'attribute_not_exists(n) OR n < :max',
                ExpressionAttributeNames: { '#ttl': 'ttl' },
                ExpressionAttributeValues: { ':one': 1, ':max': max, ':ttl': windowStart + windowSeconds * 2 },
              },
            })),
          }),
        );
        return true;
      } catch (err) {
        if (err instanceof TransactionCanceledException && err.CancellationReasons?.some((r) => r.Code === 'ConditionalCheckFailed')) return false;
        throw err;
      }
    },
    async save(m) {
      await db.send(
        new PutCommand({ TableName: table, Item: { pk: `CONTACT#${m.id}`, sk: 'CONTACT', type: 'contact', ...m } }),
      );
    },
  };
}
