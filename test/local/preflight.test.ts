/**
 * `npm run preflight` against the embedded stack's emulators (its Secrets Manager, SES and PayPal simulator), as an
 * operator runs it before a deploy: one line per problem. Each case uses a stage of its own (its own secret names), so
 * nothing the other tests read is touched.
 */
import { randomUUID } from 'node:crypto';
import { CreateSecretCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { preflight } from '../../scripts/preflight';
import { stackEnv } from '../support/users';

const env = stackEnv();
const credentials = { accessKeyId: 'local', secretAccessKey: 'local' };
const secrets = new SecretsManagerClient({ region: env.AWS_REGION, endpoint: env.AWS_ENDPOINT_URL_SECRETS_MANAGER, credentials });
const ses = new SESv2Client({ region: env.AWS_REGION, endpoint: env.AWS_ENDPOINT_URL_SESV2, credentials });
const target = (stage: string, over: Partial<Parameters<typeof preflight>[0]> = {}) =>
  preflight({ stage, sender: 'no-reply@framewright.local', alarmEmail: 'ops@framewright.app', paypalBaseUrl: env.PAYPAL_BASE_URL!, ses, secrets, ...over });
/** The lines about what this test arranged (the SES emulator keeps no identities: aws-ses-v2-local has no GetEmailIdentity). */
const arranged = (lines: string[]) => lines.filter((l) => !l.startsWith('SES identity'));

describe('npm run preflight, against the embedded stack', () => {
  it("the local stage's filled secrets, and the PayPal simulator's answer to its credentials, pass", async () => {
    expect(arranged(await target('local'))).toEqual([]);
  });

  it('a fresh prod account: one line each for the alarm email, the secrets not created yet', async () => {
    const stage = `pf${randomUUID().slice(0, 8)}`;
    expect(arranged(await target(stage, { alarmEmail: undefined }))).toEqual([
      `secret framewright/${stage}/app: not created yet (deploy the app stack, then fill it: docs/deploy.md step 5)`,
      `secret framewright/${stage}/content-credentials: no signer yet (a key and a certificate from a CA on the C2PA trust list: docs/deploy.md step 5)`,
    ]);
    const prod = await preflight({ stage: 'prod', sender: 'x@framewright.app', paypalBaseUrl: env.PAYPAL_BASE_URL!, ses, secrets });
    expect(prod[0]).toBe('alarm email: not set (-c alarmEmail=<address>): every alarm and budget alert would notify nobody');
  });

  it('empty keys are named, and PayPal credentials the provider refuses say so', async () => {
    const stage = `pf${randomUUID().slice(0, 8)}`;
    await secrets.send(
      new CreateSecretCommand({
        Name: `framewright/${stage}/app`,
        SecretString: JSON.stringify({ REPLICATE_API_TOKEN: 'r8_x', REPLICATE_WEBHOOK_SECRET: '', PAYPAL_CLIENT_ID: 'not-the-app', PAYPAL_CLIENT_SECRET: 'wrong', PAYPAL_WEBHOOK_ID: 'WH-1' }),
      }),
    );
    const lines = arranged(await target(stage));
    expect(lines).toContain(`secret framewright/${stage}/app: REPLICATE_WEBHOOK_SECRET is empty (docs/deploy.md step 5)`);
    expect(lines.find((l) => l.startsWith('PayPal'))).toMatch(/^PayPal \(http[^)]+\): the client id and secret are refused \(HTTP 401\)/);
  });
});
