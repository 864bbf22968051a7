import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { DeleteCommand, PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WebhookInbox } from '../ports/webhooks';
import { keys } from '../domain/keys';
import { updateIf } from './update-if';

/** PayPal retries a webhook for up to three days; remember handled events well beyond that. */
const KEEP_DAYS = 30;

/** Handled provider events under `WEBHOOK#<provider>:<event id>`, forgotten (TTL) after `keepDays` (30 by default). */
export function dynamoWebhookInbox(db: DynamoDBDocumentClient, table: string, provider: string, opts: { keepDays?: number } = {}): WebhookInbox {
  const keepDays = opts.keepDays ?? KEEP_DAYS;
  const key = (id: string) => ({ pk: keys.webhook(provider, id), sk: 'WEBHOOK' });
  const item = (eventId: string, info: Record<string, string>) => {
    const now = new Date();
    return { ...key(eventId), type: 'webhook', provider, ...info, receivedAt: now.toISOString(), ttl: Math.floor(now.getTime() / 1000) + keepDays * 86400 };
  };
  const countRedelivery = (eventId: string) =>
    updateIf(db, {
      TableName: table,
      Key: key(eventId),
      UpdateExpression: 'ADD redeliveries :one',
      ConditionExpression: 'attribute_exists(pk)',
      ExpressionAttributeValues: { ':one': 1 },
    });
  return {
    async claim(eventId, info) {
      try {
        await db.send(new PutCommand({ TableName: table, Item: item(eventId, info), ConditionExpression: 'attribute_not_exists(pk)' }));
        return true;
      } catch (err) {
        if (!(err instanceof ConditionalCheckFailedException)) throw err;
        await countRedelivery(eventId);
        return false;
      }
    },
    async release(eventId) {
      await db.send(new DeleteCommand({ TableName: table, Key: key(eventId) }));
    },
    async note(eventId, info) {
      const names = Object.keys(info);
      if (!names.length) return;
      await updateIf(db, {
        TableName: table,
        Key: key(eventId),
        UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')}`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
        ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, info[n]])),
      });
    },
  };
}
