import {
  DescribeSecretCommand,
  GetSecretValueCommand,
  PutSecretValueCommand,
  ResourceNotFoundException,
  SecretsManagerClient,
  UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';
import { Stage, type SecretVersions } from '../ports/origin-rotation';
import { OTHER_AWS_REQUEST_MS, requestHandlerWithin } from './request-timeouts';

/** A secret's versions and staging labels, for its rotation (reading a secret's value for use is adapters/secrets.ts). */
export function secretsManagerVersions(region: string): SecretVersions {
  const client = new SecretsManagerClient({ region, requestHandler: requestHandlerWithin(OTHER_AWS_REQUEST_MS) });
  return {
    async describe(secretId) {
      const d = await client.send(new DescribeSecretCommand({ SecretId: secretId }));
      return { rotationEnabled: Boolean(d.RotationEnabled), versions: d.VersionIdsToStages ?? {} };
    },
    async value(secretId, versionId, stage) {
      try {
        const v = await client.send(new GetSecretValueCommand({ SecretId: secretId, VersionId: versionId, VersionStage: stage }));
        return v.SecretString;
      } catch (err) {
        if (err instanceof ResourceNotFoundException) return undefined;
        throw err;
      }
    },
    async putPending(secretId, versionId, value) {
      await client.send(new PutSecretValueCommand({ SecretId: secretId, ClientRequestToken: versionId, SecretString: value, VersionStages: [Stage.pending] }));
    },
    async makeCurrent(secretId, versionId, fromVersionId) {
      await client.send(
        new UpdateSecretVersionStageCommand({ SecretId: secretId, VersionStage: Stage.current, MoveToVersionId: versionId, RemoveFromVersionId: fromVersionId }),
      );
    },
  };
}
