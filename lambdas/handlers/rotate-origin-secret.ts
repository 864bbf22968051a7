import type { SecretsManagerRotationEvent } from 'aws-lambda';
import * as z from 'zod';
import { rotateOriginSecret } from '../app/rotate-origin-secret';
import { instrumented } from '../observability';
import { rotateOriginSecretDeps } from '../wiring/deps';

const RotationEvent = z.object({
  Step: z.enum(['createSecret', 'setSecret', 'testSecret', 'finishSecret']),
  SecretId: z.string().min(1),
  ClientRequestToken: z.string().min(1),
});

/**
 * Secrets Manager's rotation function of the origin secret (every 30 days, or `aws secretsmanager rotate-secret`):
 * called once per step; the embedded stack's Secrets Manager calls it the same way.
 */
export const handler = (event: SecretsManagerRotationEvent): Promise<void> =>
  instrumented('rotateOriginSecret', async (e: SecretsManagerRotationEvent) => {
    const { Step, SecretId, ClientRequestToken } = RotationEvent.parse(e);
    await rotateOriginSecret(rotateOriginSecretDeps(), Step, SecretId, ClientRequestToken);
  })(event);
