import { ConditionalCheckFailedException } from '@aws-sdk/client-dynamodb';
import { randomUUID } from 'node:crypto';
import { DeleteCommand, UpdateCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { ClaimResult, WebhookInbox } from '../ports/webhooks';
import { keys } from '../domain/keys';
import { updateIf } from './update-if';

/** PayPal retries a webhook for up to three days; remember handled events well beyond that. */
const KEEP_DAYS = 30;

/**
 * Provider events under `WEBHOOK#<provider>:<event id>`, forgotten (TTL) after `keepDays` (30 by default). A claim is
 * a lease: `leaseUntil` (epoch ms) until `appliedAt` is set. A claim whose lease ran out with no outcome is taken
 * again by the next copy (`claims` counts the takes); a record from before leases (neither attribute) counts as a
 * lapsed lease too, which is safe because applying is idempotent by the provider's object id.
 */
export function dynamoWebhookInbox(db: DynamoDBDocumentClient, table: string, provider: string, opts: { keepDays?: number } = {}): WebhookInbox {
  const keepDays = opts.keepDays ?? KEEP_DAYS;
  const key = (id: string) => ({ pk: keys.webhook(provider, id), sk: 'WEBHOOK' });
  return {
    async claim(eventId, info, at): Promise<ClaimResult> {
      const names = Object.keys(info);
      // This call's own mark: if the SDK retries a write whose first attempt landed (an answer lost, or a store
      // that answers a contended write with a retryable error), the retry's condition fails on our own claim.
      const token = randomUUID();
      const taken = await updateIf(db, {
        TableName: table,
        Key: key(eventId),
        UpdateExpression: [
          'SET #type = :type, provider = :provider, leaseUntil = :lease, claimToken = :token, receivedAt = if_not_exists(receivedAt, :at), #ttl = :ttl',
          ...names.map((_, i) => `#n${i} = :v${i}`),
        ].join(', ') + ' ADD claims :one',
        ConditionExpression: 'attribute_not_exists(pk) OR (attribute_not_exists(appliedAt) AND (attribute_not_exists(leaseUntil) OR leaseUntil < :now))',
        ExpressionAttributeNames: { '#type': 'type', '#ttl': 'ttl', ...Object.fromEntries(names.map((n, i) => [`#n${i}`, n])) },
        ExpressionAttributeValues: {
          ':type': 'webhook',
          ':provider': provider,
          ':lease': at.leaseUntil.getTime(),
          ':now': at.now.getTime(),
          ':at': at.now.toISOString(),
          ':ttl': Math.floor(at.now.getTime() / 1000) + keepDays * 86400,
          ':one': 1,
          ':token': token,
          ...Object.fromEntries(names.map((n, i) => [`:v${i}`, info[n]])),
        },
      });
      if (taken) return 'claimed';
      // A copy of a delivery already claimed: counted, and told whether it was applied or is still being handled.
      let counted;
      try {
        counted = await db.send(
          new UpdateCommand({
            TableName: table,
            Key: key(eventId),
            UpdateExpression: 'ADD redeliveries :one',
            ConditionExpression: 'attribute_exists(pk)',
            ExpressionAttributeValues: { ':one': 1 },
            ReturnValues: 'ALL_NEW',
          }),
        );
      } catch (err) {
        // Given back in between: the next copy claims it.
        if (err instanceof ConditionalCheckFailedException) return 'held';
        throw err;
      }
      if (counted.Attributes?.claimToken === token) return 'claimed';
      return counted.Attributes?.appliedAt ? 'done' : 'held';
    },
    async release(eventId) {
      await db.send(new DeleteCommand({ TableName: table, Key: key(eventId) }));
    },
    async settle(eventId, outcome, now) {
      const record = { ...outcome, appliedAt: now.toISOString() };
      const names = Object.keys(record);
      await updateIf(db, {
        TableName: table,
        Key: key(eventId),
        UpdateExpression: `SET ${names.map((_, i) => `#n${i} = :v${i}`).join(', ')} REMOVE leaseUntil`,
        ConditionExpression: 'attribute_exists(pk)',
        ExpressionAttributeNames: Object.fromEntries(names.map((n, i) => [`#n${i}`, n])),
        ExpressionAttributeValues: Object.fromEntries(names.map((n, i) => [`:v${i}`, record[n as keyof typeof record]])),
      });
    },
  };
}
