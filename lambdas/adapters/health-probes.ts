import { GetCommand } from '@aws-sdk/lib-dynamodb';
import { GetObjectCommand } from '@aws-sdk/client-s3';
import { GetAccountCommand } from '@aws-sdk/client-sesv2';
import type { AppConfig } from '../config';
import type { Probe } from '../ports/health';
import { dynamo, s3Client, sesClient } from './aws-clients';

/** Checks of every dependency the handlers use; each only reads, and each needs only the route's grants. */
export function healthProbes(c: AppConfig): Record<string, Probe> {
  const jwks = c.COGNITO_JWKS_URL ?? `https://cognito-idp.${c.AWS_REGION}.amazonaws.com/${c.USER_POOL_ID}/.well-known/jwks.json`;
  return {
    database: async () => {
      await dynamo().send(new GetCommand({ TableName: c.TABLE_NAME, Key: { pk: 'HEALTH', sk: 'HEALTH' } }));
    },
    storage: async () => {
      try {
        await s3Client().send(new GetObjectCommand({ Bucket: c.MEDIA_BUCKET, Key: 'health/probe', Range: 'bytes=0-0' }));
      } catch (err) {
        // A missing object (or no ListBucket permission to say so) still proves the bucket answers.
        const name = (err as { name?: string }).name;
        if (name === 'NoSuchKey' || name === 'AccessDenied') return;
        throw err;
      }
    },
    auth: async () => {
      // Ends with the probe's own bound (checkHealth's 3 s) rather than leaving the request open after it.
      const res = await fetch(jwks, { signal: AbortSignal.timeout(3_000) });
      if (!res.ok) throw new Error(`JWKS answered ${res.status}`);
    },
    email: async () => {
      await sesClient().send(new GetAccountCommand({}));
    },
  };
}
