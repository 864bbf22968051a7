/**
 * One SDK client per service, created once per cold start from validated configuration (STYLE 3).
 * Endpoints come from AWS_ENDPOINT_URL_* which the SDK reads itself; only s3rver needs extra settings.
 */
import { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { S3Client } from '@aws-sdk/client-s3';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { config, isLocalS3 } from '../config';
import { tracer } from '../observability';

let ddb: DynamoDBDocumentClient | undefined;
let s3: S3Client | undefined;
let ses: SESv2Client | undefined;

export function dynamo(): DynamoDBDocumentClient {
  // Each client's calls are X-Ray subsegments (a no-op outside Lambda).
  ddb ??= DynamoDBDocumentClient.from(tracer.captureAWSv3Client(new DynamoDBClient({ region: config().AWS_REGION, maxAttempts: 5 })), {
    marshallOptions: { removeUndefinedValues: true },
  });
  return ddb;
}

export function s3Client(): S3Client {
  s3 ??= tracer.captureAWSv3Client(
    new S3Client({
      region: config().AWS_REGION,
      ...(isLocalS3() ? { forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED' as const } : {}),
    }),
  );
  return s3;
}

export function sesClient(): SESv2Client {
  ses ??= tracer.captureAWSv3Client(new SESv2Client({ region: config().AWS_REGION }));
  return ses;
}
