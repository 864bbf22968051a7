/**
 * Powertools Idempotency's DynamoDB persistence on the app's one table. The library keeps the record (in progress, then
 * the first answer, with its payload hash and expiry); only where it lives is ours: each key its own partition
 * (`IDEMPOTENCY#<route>#<hash>`/`IDEMPOTENCY`), where the library's composite-key mode would put every record of a
 * route under one constant partition key, and the table's `ttl` attribute as its expiry, so DynamoDB removes it.
 */
import { createHash } from 'node:crypto';
import { ConditionalCheckFailedException, type DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { PutCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { IDEMPOTENCY_TTL_SECONDS } from '../../contract/idempotency';
import { keys } from '../domain/keys';

class OneTablePersistence extends DynamoDBPersistenceLayer {
  protected override getKey(idempotencyKey: string) {
    return marshall({ pk: keys.idempotency(idempotencyKey), sk: keys.idempotencyItem });
  }
}

export function dynamoIdempotencyStore(client: DynamoDBClient, table: string): DynamoDBPersistenceLayer {
  return new OneTablePersistence({ tableName: table, keyAttr: 'pk', sortKeyAttr: 'sk', expiryAttr: 'ttl', awsSdkV3Client: client });
}

/**
 * Which route each caller's Idempotency-Key belongs to: Powertools keys its records by route (keyPrefix), so on its
 * own it would let one key start a request on each route (and the job store's start guard, keyed per user, would then
 * answer the first route's job). `bind` records the key's route on first use, one conditional put, and is false
 * when the key was first sent to another route within the day.
 */
export function dynamoIdempotencyKeyRoutes(db: DynamoDBDocumentClient, table: string) {
  return {
    async bind(sub: string, key: string, routeId: string, now = new Date()): Promise<boolean> {
      const hash = createHash('sha256').update(JSON.stringify([sub, key])).digest('hex');
      try {
        await db.send(
          new PutCommand({
            TableName: table,
            Item: { pk: keys.idempotencyKeyRoute(hash), sk: keys.idempotencyKeyRouteItem, route: routeId, ttl: Math.floor(now.getTime() / 1000) + IDEMPOTENCY_TTL_SECONDS },
            ConditionExpression: 'attribute_not_exists(pk) OR #route = :route',
            ExpressionAttributeNames: { '#route': 'route' },
            ExpressionAttributeValues: { ':route': routeId },
          }),
        );
        return true;
      } catch (err) {
        if (err instanceof ConditionalCheckFailedException) return false;
        throw err;
      }
    },
  };
}
