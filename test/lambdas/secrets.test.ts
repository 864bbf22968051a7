/**
 * The cloud path of lambdas/adapters/secrets.ts: the secret named by SECRETS_ARN, read through the AWS SDK.
 * The embedded stack has no Secrets Manager, so a minimal stand-in answers GetSecretValue (the SDK finds it
 * through AWS_ENDPOINT_URL_SECRETS_MANAGER) and counts how often it is asked.
 */
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';

type SecretsModule = typeof import('../../lambdas/adapters/secrets');

const SECRET_ARN = 'arn:aws:secretsmanager:us-east-1:123456789012:secret:framewright/dev/app-AbCdEf';

describe('app secrets from Secrets Manager', () => {
  let server: http.Server;
  let secretString = '{}';
  const requests: { target: string; body: { SecretId?: string } }[] = [];
  const savedEnv = { ...process.env };

  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let raw = '';
      req.on('data', (chunk: Buffer) => (raw += chunk.toString()));
      req.on('end', () => {
        requests.push({ target: String(req.headers['x-amz-target']), body: JSON.parse(raw || '{}') });
        res.writeHead(200, { 'content-type': 'application/x-amz-json-1.1' });
        res.end(JSON.stringify({ ARN: SECRET_ARN, Name: 'framewright/dev/app', SecretString: secretString }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    Object.assign(process.env, {
      AWS_ENDPOINT_URL_SECRETS_MANAGER: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      AWS_ACCESS_KEY_ID: 'test',
      AWS_SECRET_ACCESS_KEY: 'test',
      AWS_REGION: 'us-east-1',
      TABLE_NAME: 'framewright',
      MEDIA_BUCKET: 'framewright-media',
      USER_POOL_ID: 'us-east-1_test',
      USER_POOL_CLIENT_ID: 'client',
      APP_URL: 'https://d111111abcdef8.cloudfront.net',
      SES_FROM_ADDRESS: 'no-reply@example.com',
      SUPPORT_EMAIL: 'support@example.com',
      SECRETS_ARN: SECRET_ARN,
      REPLICATE_API_TOKEN: '',
    });
  });

  afterAll(async () => {
    process.env = savedEnv;
    await new Promise((resolve) => server.close(resolve));
  });

  /** A fresh module, as in a new function instance. */
  function freshModule(): SecretsModule {
    let mod: SecretsModule | undefined;
    jest.isolateModules(() => {
      mod = jest.requireActual<SecretsModule>('../../lambdas/adapters/secrets');
    });
    return mod!;
  }

  beforeEach(() => {
    requests.length = 0;
  });

  it('reads the secret once per instance and keeps it', async () => {
    secretString = JSON.stringify({ REPLICATE_API_TOKEN: 'r8_token', PAYPAL_CLIENT_ID: 'pp-client' });
    const secrets = freshModule();
    const [token, client] = await Promise.all([secrets.requireSecret('REPLICATE_API_TOKEN'), secrets.requireSecret('PAYPAL_CLIENT_ID')]);
    expect([token, client]).toEqual(['r8_token', 'pp-client']);
    expect(await secrets.requireSecret('REPLICATE_API_TOKEN')).toBe('r8_token');
    expect(requests).toEqual([{ target: 'secretsmanager.GetSecretValue', body: { SecretId: SECRET_ARN } }]);
  });

  it('reads again after finding an empty key, so a value filled in later is used without a new instance', async () => {
    // What CDK creates: every key present and empty.
    secretString = JSON.stringify({ REPLICATE_API_TOKEN: '', REPLICATE_WEBHOOK_SECRET: '' });
    const secrets = freshModule();
    await expect(secrets.requireSecret('REPLICATE_WEBHOOK_SECRET')).rejects.toThrow('Missing configuration: REPLICATE_WEBHOOK_SECRET');

    secretString = JSON.stringify({ REPLICATE_API_TOKEN: 'r8_token', REPLICATE_WEBHOOK_SECRET: 'whsec_abc' });
    expect(await secrets.requireSecret('REPLICATE_WEBHOOK_SECRET')).toBe('whsec_abc');
    expect(await secrets.requireSecret('REPLICATE_API_TOKEN')).toBe('r8_token');
    expect(requests).toHaveLength(2);
  });
});
