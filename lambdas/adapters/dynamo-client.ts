import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { config } from '../config';
import { tracer } from '../observability';
import { DYNAMODB_REQUEST_MS, requestHandlerWithin } from './request-timeouts';

let ddb: DynamoDBDocumentClient | undefined;

export function dynamo(): DynamoDBDocumentClient {
  // Each client's calls are X-Ray subsegments (a no-op outside Lambda).
  ddb ??= DynamoDBDocumentClient.from(tracer.captureAWSv3Client(new DynamoDBClient({ region: config().AWS_REGION, maxAttempts: 5, requestHandler: requestHandlerWithin(DYNAMODB_REQUEST_MS) })), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return ddb;
}
