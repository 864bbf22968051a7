import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { WebhookInbox } from '../ports/webhooks';
import { keys } from '../domain/keys';
import { updateIf } from './update-if';

/** PayPal retries a webhook for up to three days; remember handled events well beyond that. */
const KEEP_DAYS = 30;

/** Handled provider events under `WEBHOOK#<provider>:<event id>`, forgotten (TTL) after `keepDays` (30 by default). */
export function dynamoWebhookInbox(db: DynamoDBDocumentClient, table: string, provider: string, opts: { keepDays?: number } = {}): WebhookInbox {
  const keepDays = opts.keepDays ?? KEEP_DAYS;
  const key = (id: string) => ({ pk: keys.webhook(provider, id), sk: 'WEBHOOK' });
  return {
    async seen(eventId) {
      // Counts the redelivery on the handled event's record (visible to operators); false when there is none.
      return updateIf(db, {
        TableName: table,
        Key: key(eventId),
        UpdateExpression: 'ADD redeliveries :one',
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeValues: { ':one': 1 },
      });
    },
    async record(eventId, info) {
      const now = new Date();
      await db.send(
        new PutCommand({
          TableName: table,
          Item: { ...key(eventId), type: 'webhook', provider, ...info, receivedAt: now.toISOString(), ttl: Math.floor(now.getTime() / 1000) + keepDays * 86400 },
        }),
      );
    },
  };
}
