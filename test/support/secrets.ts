/** The embedded stack's secrets, read and changed as an operator would: through the AWS SDK on its Secrets Manager. */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import type { OriginSecretValue } from '../../contract/origin';
import { stackEnv } from './users';

let client: SecretsManagerClient | undefined;
export function secretsManager(): SecretsManagerClient {
  const env = stackEnv();
  client ??= new SecretsManagerClient({
    region: env.AWS_REGION,
    endpoint: env.AWS_ENDPOINT_URL_SECRETS_MANAGER,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
  });
  return client;
}

/** The origin header's value at a staging label (AWSCURRENT by default). */
export async function originHeader(stage = 'AWSCURRENT'): Promise<string> {
  const res = await secretsManager().send(new GetSecretValueCommand({ SecretId: stackEnv().ORIGIN_SECRET_ARN, VersionStage: stage }));
  return (JSON.parse(res.SecretString!) as OriginSecretValue).header;
}
