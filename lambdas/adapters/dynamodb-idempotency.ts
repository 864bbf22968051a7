/**
 * Powertools Idempotency's DynamoDB persistence on the app's one table. The library keeps the record (in progress, then
 * the first answer, with its payload hash and expiry); only where it lives is ours: each key its own partition
 * (`IDEMPOTENCY#<route>#<hash>`/`IDEMPOTENCY`), where the library's composite-key mode would put every record of a
 * route under one constant partition key, and the table's `ttl` attribute as its expiry, so DynamoDB removes it.
 */
import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBPersistenceLayer } from '@aws-lambda-powertools/idempotency/dynamodb';
import { marshall } from '@aws-sdk/util-dynamodb';
import { keys } from '../domain/keys';

class OneTablePersistence extends DynamoDBPersistenceLayer {
  protected override getKey(idempotencyKey: string) {
    return marshall({ pk: keys.idempotency(idempotencyKey), sk: keys.idempotencyItem });
  }
}

export function dynamoIdempotencyStore(client: DynamoDBClient, table: string): DynamoDBPersistenceLayer {
  return new OneTablePersistence({ tableName: table, keyAttr: 'pk', sortKeyAttr: 'sk', expiryAttr: 'ttl', awsSdkV3Client: client });
}
