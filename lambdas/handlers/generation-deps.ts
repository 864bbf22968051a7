/** The generation use cases' ports, wired to the real adapters once per cold start. */
import { dynamo, s3Client } from '../adapters/aws-clients';
import { dynamoJobStore } from '../adapters/dynamodb-jobs';
import { dynamoMediaIndex } from '../adapters/dynamodb-media';
import { dynamoWebhookInbox } from '../adapters/dynamodb-webhook-inbox';
import { replicateProvider } from '../adapters/replicate-provider';
import { s3MediaStore } from '../adapters/s3-media-store';
import { memoUntilFailure } from '../adapters/memo-until-failure';
import { requireSecret } from '../adapters/secrets';
import type { GenerationDeps } from '../app/generation';
import { config } from '../config';

const c = config();

export const generationDeps: GenerationDeps = {
  jobs: dynamoJobStore(dynamo(), c.TABLE_NAME),
  media: dynamoMediaIndex(dynamo(), c.TABLE_NAME),
  store: s3MediaStore(s3Client(), c.MEDIA_BUCKET),
  provider: memoUntilFailure(async () => replicateProvider({ token: await requireSecret('REPLICATE_API_TOKEN'), baseUrl: c.REPLICATE_BASE_URL })),
  webhookUrl: `${c.APP_URL}/api/webhooks/replicate`,
  now: () => new Date(),
};

/** Replicate's webhook deliveries already handled, remembered for a week. */
export const replicateInbox = dynamoWebhookInbox(dynamo(), c.TABLE_NAME, 'replicate', { keepDays: 7 });
