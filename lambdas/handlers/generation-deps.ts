/** The generation use cases' ports, wired to the real adapters once per cold start. */
import { dynamo, s3Client } from '../adapters/aws-clients';
import { dynamoJobStore } from '../adapters/dynamodb-jobs';
import { dynamoMediaIndex } from '../adapters/dynamodb-media';
import { dynamoAccountStore } from '../adapters/dynamodb-accounts';
import { dynamoWebhookInbox } from '../adapters/dynamodb-webhook-inbox';
import { replicateProvider } from '../adapters/replicate-provider';
import { s3MediaStore } from '../adapters/s3-media-store';
import { requireSecret } from '../adapters/secrets';
import type { GenerationDeps } from '../app/generation';
import type { ModelProvider } from '../ports/model-provider';
import { config } from '../config';

const c = config();
let provider: Promise<ModelProvider> | undefined;

export const accounts = dynamoAccountStore(dynamo(), c.TABLE_NAME);

export const generationDeps: GenerationDeps = {
  jobs: dynamoJobStore(dynamo(), c.TABLE_NAME),
  media: dynamoMediaIndex(dynamo(), c.TABLE_NAME),
  store: s3MediaStore(s3Client(), c.MEDIA_BUCKET),
  provider: () =>
    (provider ??= requireSecret('REPLICATE_API_TOKEN')
      .then((token) => replicateProvider({ token, baseUrl: c.REPLICATE_BASE_URL }))
      .catch((err) => {
        provider = undefined;
        throw err;
      })),
  webhookUrl: `${c.APP_URL}/api/webhooks/replicate`,
  now: () => new Date(),
};

/** Replicate's webhook deliveries already handled, remembered for a week. */
export const replicateInbox = dynamoWebhookInbox(dynamo(), c.TABLE_NAME, 'replicate', { keepDays: 7 });
