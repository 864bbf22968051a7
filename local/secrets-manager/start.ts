/**
 * The embedded stack's secrets, in its local Secrets Manager, as a deploy makes them: the app's provider keys
 * (framewright/local/app), the welcome hash key, the content-credentials signer (generated: lambdas/adapters/content-credentials-cert.ts) and the origin header's secret, with the origin secret's rotation
 * function. The single origin (CloudFront's stand-in) sends the header value its "distribution" holds: the secret's
 * value at start, then what each rotation's setSecret step gives it, as CloudFront's origin configuration would.
 */
import { randomBytes } from 'node:crypto';
import type { OriginSecretValue } from '../../contract/origin';
import { makeLocalSigningCredential } from '../../lambdas/adapters/content-credentials-cert';
import { CURRENT, localSecretsManager, PENDING, type LocalSecretsManager, type RotationEvent } from '.';

export interface LocalSecrets {
  /** AWS_ENDPOINT_URL_SECRETS_MANAGER. */
  endpoint: string;
  /** The ARNs the functions' environment names (SECRETS_ARN, WELCOME_HASH_KEY_ARN, ORIGIN_SECRET_ARN). */
  env: Record<string, string>;
  /** The origin header's value as the distribution sends it now. */
  edgeHeader(): string;
  manager: LocalSecretsManager;
  close(): Promise<void>;
}

export interface LocalSecretsOptions {
  dataDir: string;
  region: string;
  port: number;
  /** The provider keys of the simulators. */
  appKeys: Record<string, string>;
  /** Fixed, as a stage's: `.data/` keeps the welcome marks it keys. */
  welcomeHashKey: string;
  stage: string;
  /** Loads the origin secret's rotation handler (lambdas/handlers/rotate-origin-secret.ts). */
  loadRotation: () => Promise<(event: RotationEvent) => Promise<void>>;
  log: (line: string) => void;
}

/** The rotation function's ARN, as the secret's rotation configuration names it. */
const ROTATION_ARN = (region: string) => `arn:aws:lambda:${region}:000000000000:function:framewright-local-rotateOriginSecret`;

export async function startLocalSecrets(o: LocalSecretsOptions): Promise<LocalSecrets> {
  let edge = '';
  const rotationArn = ROTATION_ARN(o.region);
  const manager = localSecretsManager({
    dataDir: o.dataDir,
    region: o.region,
    log: o.log,
    async invokeRotation(arn, event) {
      if (arn !== rotationArn) throw new Error(`ResourceNotFoundException: Function not found: ${arn}`);
      await (await o.loadRotation())(event);
      // What the cloud's setSecret does through CloudFront's API: the distribution now sends the pending value.
      if (event.Step === 'setSecret') edge = (await valueOf(event.SecretId, PENDING)).header;
    },
  });
  const endpoint = await manager.listen(o.port);

  const call = async (operation: Parameters<LocalSecretsManager['call']>[0], input: Record<string, unknown>) => {
    const a = await manager.call(operation, input);
    if (a.status !== 200) throw new Error(`[secrets] ${operation}: ${String(a.body.__type)}: ${String(a.body.message)}`);
    return a.body;
  };
  const valueOf = async (secretId: string, stage: string) =>
    JSON.parse(String((await call('GetSecretValue', { SecretId: secretId, VersionStage: stage })).SecretString)) as OriginSecretValue;
  /** The secret's ARN, created with `value` if it does not exist yet (kept as it is otherwise, as a stage's). */
  const ensure = async (name: string, value: string): Promise<string> => {
    const found = await manager.call('DescribeSecret', { SecretId: name });
    if (found.status === 200) return String(found.body.ARN);
    return String((await call('CreateSecret', { Name: name, SecretString: value })).ARN);
  };

  const appArn = await ensure(`framewright/${o.stage}/app`, JSON.stringify(o.appKeys));
  const welcomeArn = await ensure(`framewright/${o.stage}/welcome-hash-key`, o.welcomeHashKey);
  const fresh = (): OriginSecretValue => ({ header: randomBytes(36).toString('base64url') });
  // Made once, then kept with the data directory, as a stage's certificate is kept until an operator replaces it.
  const credentialsArn = await ensure(`framewright/${o.stage}/content-credentials`, JSON.stringify(await makeLocalSigningCredential()));
  const originArn = await ensure(`framewright/${o.stage}/origin-verify`, JSON.stringify(fresh()));
  // A fresh origin value at every start, as a new stage gets one at its first deploy; the last run's is not accepted.
  await call('PutSecretValue', { SecretId: originArn, SecretString: JSON.stringify(fresh()) });
  await call('RotateSecret', { SecretId: originArn, RotationLambdaARN: rotationArn, RotationRules: { AutomaticallyAfterDays: 30 }, RotateImmediately: false });
  edge = (await valueOf(originArn, CURRENT)).header;
  o.log(`[secrets] Secrets Manager on ${endpoint}`);

  return {
    endpoint,
    env: { SECRETS_ARN: appArn, WELCOME_HASH_KEY_ARN: welcomeArn, ORIGIN_SECRET_ARN: originArn, CONTENT_CREDENTIALS_ARN: credentialsArn },
    edgeHeader: () => edge,
    manager,
    close: () => manager.close(),
  };
}
