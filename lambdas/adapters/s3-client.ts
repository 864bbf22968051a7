import { S3Client } from '@aws-sdk/client-s3';
import { config, isLocalS3 } from '../config';
import { tracer } from '../observability';
import { requestHandlerWithin, S3_REQUEST_MS } from './request-timeouts';

let s3: S3Client | undefined;

export function s3Client(): S3Client {
  s3 ??= tracer.captureAWSv3Client(
    new S3Client({
      region: config().AWS_REGION,
      requestHandler: requestHandlerWithin(S3_REQUEST_MS),
      ...(isLocalS3() ? { forcePathStyle: true, requestChecksumCalculation: 'WHEN_REQUIRED' as const } : {}),
    }),
  );
  return s3;
}
