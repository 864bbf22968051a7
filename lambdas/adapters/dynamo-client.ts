import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { tracer } from '../observability';
import { DYNAMODB_REQUEST_MS, requestHandlerWithin } from './request-timeouts';

let base: DynamoDBClient | undefined;
let ddb: DynamoDBDocumentClient | undefined;

/** The plain client, for a library that takes one (Powertools Idempotency); the same one the document client wraps. */
export function dynamoBase(): DynamoDBClient {
  // Each client's calls are X-Ray subsegments (a no-op outside Lambda).
  base ??= tracer.captureAWSv3Client(new DynamoDBClient({ region: config().AWS_REGION, maxAttempts: 5, requestHandler: requestHandlerWithin(DYNAMODB_REQUEST_MS) }));
  return base;
}

export function dynamo(): DynamoDBDocumentClient {
  ddb ??= DynamoDBDocumentClient.from(dynamoBase(), { marshallOptions: { removeUndefinedValues: true } });
  return ddb;
}
