/**
 * Secrets read at run time from Secrets Manager (the embedded stack's, on AWS_ENDPOINT_URL_SECRETS_MANAGER), never
 * from a function's environment; the origin secret rotated with no deploy, as docs/deploy.md tells an operator to.
 */
import {
  CreateSecretCommand,
  DescribeSecretCommand,
  GetSecretValueCommand,
  InvalidParameterException,
  InvalidRequestException,
  PutSecretValueCommand,
  ResourceNotFoundException,
  RotateSecretCommand,
  UpdateSecretVersionStageCommand,
} from '@aws-sdk/client-secrets-manager';
import { randomUUID } from 'node:crypto';
import { ORIGIN_HEADER } from '../../contract/origin';
import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { requestFrom } from '../support/from-address';
import { originHeader, secretsManager } from '../support/secrets';
import { stackEnv, stackUrl } from '../support/users';

type Deps = typeof import('../../lambdas/wiring/deps');
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const sm = () => secretsManager();

describe('the local Secrets Manager', () => {
  it('answers as the service does: versions, AWSCURRENT and AWSPREVIOUS, and its errors', async () => {
    const name = `framewright/test/${randomUUID()}`;
    const created = await sm().send(new CreateSecretCommand({ Name: name, SecretString: 'one' }));
    expect(created.ARN).toMatch(new RegExp(`^arn:aws:secretsmanager:us-east-1:\\d{12}:secret:${name}-\\w{6}$`));
    await sm().send(new PutSecretValueCommand({ SecretId: name, SecretString: 'two' }));
    // By name, by ARN, by stage.
    expect((await sm().send(new GetSecretValueCommand({ SecretId: created.ARN }))).SecretString).toBe('two');
    expect((await sm().send(new GetSecretValueCommand({ SecretId: name, VersionStage: 'AWSPREVIOUS' }))).SecretString).toBe('one');
    const described = await sm().send(new DescribeSecretCommand({ SecretId: name }));
    expect(Object.values(described.VersionIdsToStages!).sort()).toEqual([['AWSCURRENT'], ['AWSPREVIOUS']]);
    expect(described.RotationEnabled).toBe(false);

    await expect(sm().send(new GetSecretValueCommand({ SecretId: `${name}-nope` }))).rejects.toBeInstanceOf(ResourceNotFoundException);
    await expect(sm().send(new GetSecretValueCommand({ SecretId: name, VersionStage: 'AWSPENDING' }))).rejects.toThrow(
      "Secrets Manager can't find the specified secret value for staging label: AWSPENDING",
    );
    await expect(sm().send(new RotateSecretCommand({ SecretId: name }))).rejects.toBeInstanceOf(InvalidRequestException);
    // AWSCURRENT is on another version than the one named to take it from.
    const [previousId] = Object.entries(described.VersionIdsToStages!).find(([, s]) => s.includes('AWSPREVIOUS'))!;
    await expect(
      sm().send(new UpdateSecretVersionStageCommand({ SecretId: name, VersionStage: 'AWSCURRENT', MoveToVersionId: previousId, RemoveFromVersionId: previousId })),
    ).rejects.toBeInstanceOf(InvalidParameterException);
  });

  it('answers an operation it does not know, or a body that is not JSON, with the service\'s error names', async () => {
    const post = (target: string, body: string) =>
      fetch(stackEnv().AWS_ENDPOINT_URL_SECRETS_MANAGER!, { method: 'POST', headers: { 'x-amz-target': target, 'content-type': 'application/x-amz-json-1.1' }, body });
    const unknown = await post('secretsmanager.DeleteEverything', '{}');
    expect([unknown.status, ((await unknown.json()) as { __type: string }).__type]).toEqual([400, 'UnknownOperationException']);
    const garbled = await post('secretsmanager.GetSecretValue', '{"SecretId":');
    expect([garbled.status, ((await garbled.json()) as { __type: string }).__type]).toEqual([400, 'SerializationException']);
  });
});

describe('secrets in the functions', () => {
  it('are named by ARN in the environment, never given by value', async () => {
    const env = stackEnv();
    for (const key of ['SECRETS_ARN', 'WELCOME_HASH_KEY_ARN', 'ORIGIN_SECRET_ARN']) expect(env[key]).toMatch(/^arn:aws:secretsmanager:/);
    const values = [...Object.values(LOCAL_SECRETS), await originHeader()];
    expect(Object.entries(env).filter(([, v]) => values.some((secret) => v.includes(secret)))).toEqual([]);
    // The welcome marks are keyed with the secret's value (test/api/abuse-limits.test.ts checks a mark with it).
    expect((await sm().send(new GetSecretValueCommand({ SecretId: env.WELCOME_HASH_KEY_ARN }))).SecretString).toBe(LOCAL_SECRETS.welcomeHashKey);
  });

  it('use a provider key put into the secret once the cache age has passed, with no restart', async () => {
    // A copy of the app secret, so the stack's own functions keep theirs while this one changes.
    const keys = {
      REPLICATE_API_TOKEN: LOCAL_SECRETS.replicateToken,
      REPLICATE_WEBHOOK_SECRET: LOCAL_SECRETS.replicateWebhookSecret,
      PAYPAL_CLIENT_ID: LOCAL_SECRETS.paypalClientId,
      PAYPAL_CLIENT_SECRET: LOCAL_SECRETS.paypalClientSecret,
      PAYPAL_WEBHOOK_ID: LOCAL_SECRETS.paypalWebhookId,
    };
    const { ARN } = await sm().send(new CreateSecretCommand({ Name: `framewright/test/app-${randomUUID()}`, SecretString: JSON.stringify(keys) }));
    const saved = { ...process.env };
    let deps: Deps | undefined;
    Object.assign(process.env, { SECRETS_ARN: ARN, SECRETS_CACHE_SECONDS: '3' });
    try {
      // A fresh function instance with that secret.
      jest.isolateModules(() => {
        deps = jest.requireActual<Deps>('../../lambdas/wiring/deps');
      });
      const provider = deps!.reconcileJobsDeps().provider;
      await expect((await provider()).listSince(new Date())).resolves.toEqual([]);

      await sm().send(new PutSecretValueCommand({ SecretId: ARN, SecretString: JSON.stringify({ ...keys, REPLICATE_API_TOKEN: 'r8_revoked' }) }));
      // Within the cache age the instance keeps the token it read...
      await expect((await provider()).listSince(new Date())).resolves.toEqual([]);
      await sleep(3_300);
      // ...then uses the new one, which the simulator refuses as Replicate would.
      await expect((await provider()).listSince(new Date())).rejects.toThrow();
    } finally {
      process.env = saved;
    }
  });
});

describe('rotating the origin secret (docs/deploy.md: aws secretsmanager rotate-secret)', () => {
  const direct = (value: string) => requestFrom('127.0.0.1', `${stackEnv().API_ENDPOINT_URL}/api/health`, { headers: { [ORIGIN_HEADER]: value } });

  it('keeps every call answered during the overlap, old and new header both accepted, then refuses the old one', async () => {
    const secretId = 'framewright/local/origin-verify';
    const old = await originHeader();
    const overlapMs = Number(stackEnv().ORIGIN_SECRET_OVERLAP_SECONDS) * 1000;
    const cacheMs = Number(stackEnv().ORIGIN_SECRET_CACHE_SECONDS) * 1000;

    const started = await sm().send(new RotateSecretCommand({ SecretId: secretId }));
    expect(started.VersionId).toBeDefined();
    // While it runs (the new value is made, the API learns it, the single origin switches, it is tested, it becomes
    // current), calls through the single origin and calls with the old value keep being answered.
    const statuses: number[] = [];
    const deadline = Date.now() + 30_000;
    for (;;) {
      statuses.push((await fetch(`${stackUrl()}/api/health`)).status, (await direct(old)).status);
      const stages = (await sm().send(new DescribeSecretCommand({ SecretId: secretId }))).VersionIdsToStages!;
      if (stages[started.VersionId!]?.includes('AWSCURRENT') && !Object.values(stages).some((s) => s.includes('AWSPENDING'))) break;
      if (Date.now() > deadline) throw new Error(`The rotation did not finish: ${JSON.stringify(stages)}`);
      await sleep(100);
    }
    expect(statuses.length).toBeGreaterThan(4);
    expect(statuses.filter((s) => s !== 200)).toEqual([]);

    const now = await originHeader();
    expect(now).not.toBe(old);
    expect(await originHeader('AWSPREVIOUS')).toBe(old);
    const { SecretString } = await sm().send(new GetSecretValueCommand({ SecretId: secretId }));
    const since = Date.parse((JSON.parse(SecretString!) as { since: string }).since);
    // The overlap: both values pass, and the single origin sends the new one.
    expect((await direct(now)).status).toBe(200);
    expect((await direct(old)).status).toBe(200);
    expect((await fetch(`${stackUrl()}/api/health`)).status).toBe(200);

    // After it (and the functions' cache age), the old value is refused; the new one and the single origin still pass.
    let refusedAt: number | undefined;
    while (Date.now() < since + overlapMs + cacheMs + 5_000) {
      if ((await direct(old)).status === 403) {
        refusedAt = Date.now();
        break;
      }
      await sleep(200);
    }
    expect(refusedAt).toBeDefined();
    expect(refusedAt!).toBeGreaterThanOrEqual(since + overlapMs);
    expect((await direct(now)).status).toBe(200);
    expect((await fetch(`${stackUrl()}/api/health`)).status).toBe(200);
  }, 60_000);
});
