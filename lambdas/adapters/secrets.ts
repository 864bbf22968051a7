import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { config } from '../config';
import { memoUntilFailure } from './memo-until-failure';
import { OTHER_AWS_REQUEST_MS, requestHandlerWithin } from './request-timeouts';

export interface AppSecrets {
  REPLICATE_API_TOKEN?: string;
  REPLICATE_WEBHOOK_SECRET?: string;
  PAYPAL_CLIENT_ID?: string;
  PAYPAL_CLIENT_SECRET?: string;
  PAYPAL_WEBHOOK_ID?: string;
}

/**
 * Provider credentials: from the Secrets Manager secret named by SECRETS_ARN in the cloud (read once per
 * function instance, when first needed), or from the environment locally.
 */
const appSecrets = memoUntilFailure(async (): Promise<AppSecrets> => {
  const c = config();
  const fromEnv: AppSecrets = {
    REPLICATE_API_TOKEN: c.REPLICATE_API_TOKEN,
    REPLICATE_WEBHOOK_SECRET: c.REPLICATE_WEBHOOK_SECRET,
    PAYPAL_CLIENT_ID: c.PAYPAL_CLIENT_ID,
    PAYPAL_CLIENT_SECRET: c.PAYPAL_CLIENT_SECRET,
    PAYPAL_WEBHOOK_ID: c.PAYPAL_WEBHOOK_ID,
  };
  if (!c.SECRETS_ARN) return fromEnv;
  const res = await new SecretsManagerClient({ region: c.AWS_REGION, requestHandler: requestHandlerWithin(OTHER_AWS_REQUEST_MS) }).send(new GetSecretValueCommand({ SecretId: c.SECRETS_ARN }));
  return { ...fromEnv, ...(JSON.parse(res.SecretString ?? '{}') as AppSecrets) };
});

export async function requireSecret(name: keyof AppSecrets): Promise<string> {
  const value = (await appSecrets())[name];
  if (!value) {
    // Read again next time: operators fill the secret in after the first deploy, and a warm function
    // must not keep failing on the empty placeholder it read before.
    appSecrets.forget();
    throw new Error(`Missing configuration: ${name} (set it in the environment, or in the secret named by SECRETS_ARN)`);
  }
  return value;
}
