/**
 * `npm run preflight -- -c stage=prod -c senderEmail=... -c alarmEmail=... [-c senderDomain=...] [-c paypal=live]`:
 * before a deploy (and again after step 5), asks AWS with the SDK what CloudFormation cannot check, and prints one
 * line per problem (exit 1), or `preflight: ok`:
 * - the alarm email is set (prod);
 * - the SES sender identity exists (the mail stack was deployed) and is verified; the account is out of SES's sandbox;
 * - the secrets are filled (every key of framewright/<stage>/app, the content-credentials signer), PayPal's
 *   credentials answer an OAuth call at the stage's PayPal, and prod's signer is not self-signed nor the embedded
 *   stack's own root's.
 * The SDK clients honour AWS_ENDPOINT_URL_<SERVICE> and PAYPAL_BASE_URL, so the embedded stack's emulators answer it
 * locally (test/local/preflight.test.ts). Not checked here (the SDK clients are not dependencies of the app): the CDK
 * bootstrap stack and the Lambda concurrency quota; `cdk deploy` and synth's accountConcurrency check catch those.
 */
import { GetSecretValueCommand, SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { GetAccountCommand, GetEmailIdentityCommand, SESv2Client } from '@aws-sdk/client-sesv2';
import { X509Certificate } from '@peculiar/x509';
import { PAYPAL_BASE_URLS } from '../lib/settings';

export interface PreflightTarget {
  stage: string;
  /** The SES identity: senderDomain if given, else senderEmail. */
  sender: string;
  alarmEmail?: string;
  paypalBaseUrl: string;
  ses: SESv2Client;
  secrets: SecretsManagerClient;
}

const APP_KEYS = ['REPLICATE_API_TOKEN', 'REPLICATE_WEBHOOK_SECRET', 'PAYPAL_CLIENT_ID', 'PAYPAL_CLIENT_SECRET', 'PAYPAL_WEBHOOK_ID'] as const;
const errName = (err: unknown) => (err as { name?: string }).name ?? String(err);

async function secretJson(t: PreflightTarget, name: string): Promise<Record<string, unknown> | 'missing' | 'empty'> {
  try {
    const res = await t.secrets.send(new GetSecretValueCommand({ SecretId: name }));
    if (!res.SecretString) return 'empty';
    const value: unknown = JSON.parse(res.SecretString);
    return value && typeof value === 'object' ? (value as Record<string, unknown>) : 'empty';
  } catch (err) {
    if (errName(err) === 'ResourceNotFoundException') return 'missing';
    if (err instanceof SyntaxError) return 'empty';
    throw err;
  }
}

/** Every problem found, one line each (empty: ready to deploy). */
export async function preflight(t: PreflightTarget): Promise<string[]> {
  const problems: string[] = [];
  if (t.stage === 'prod' && !t.alarmEmail) problems.push('alarm email: not set (-c alarmEmail=<address>): every alarm and budget alert would notify nobody');

  try {
    const identity = await t.ses.send(new GetEmailIdentityCommand({ EmailIdentity: t.sender }));
    if (!identity.VerifiedForSendingStatus) problems.push(`SES identity ${t.sender}: not verified yet (click the link SES mailed it, or publish its DKIM records: docs/deploy.md step 4)`);
  } catch (err) {
    problems.push(
      errName(err) === 'NotFoundException'
        ? `SES identity ${t.sender}: not created (deploy Framewright-${t.stage}-mail first: docs/deploy.md step 4)`
        : `SES identity ${t.sender}: could not be read (${errName(err)})`,
    );
  }
  try {
    const account = await t.ses.send(new GetAccountCommand({}));
    if (!account.ProductionAccessEnabled) problems.push('SES account: in the sandbox (mail reaches verified addresses only, 200 a day): request production access (docs/deploy.md step 7)');
  } catch (err) {
    problems.push(`SES account: could not be read (${errName(err)})`);
  }

  const appName = `framewright/${t.stage}/app`;
  const app = await secretJson(t, appName);
  if (app === 'missing') problems.push(`secret ${appName}: not created yet (deploy the app stack, then fill it: docs/deploy.md step 5)`);
  else if (app === 'empty') problems.push(`secret ${appName}: not JSON (docs/deploy.md step 5)`);
  else {
    for (const key of APP_KEYS) if (!app[key]) problems.push(`secret ${appName}: ${key} is empty (docs/deploy.md step 5)`);
    if (app.PAYPAL_CLIENT_ID && app.PAYPAL_CLIENT_SECRET) {
      const basic = Buffer.from(`${String(app.PAYPAL_CLIENT_ID)}:${String(app.PAYPAL_CLIENT_SECRET)}`).toString('base64');
      try {
        const res = await fetch(`${t.paypalBaseUrl}/v1/oauth2/token`, {
          method: 'POST',
          headers: { authorization: `Basic ${basic}`, 'content-type': 'application/x-www-form-urlencoded' },
          body: 'grant_type=client_credentials',
        });
        const body = (await res.json().catch(() => ({}))) as { access_token?: string };
        if (!res.ok || !body.access_token) problems.push(`PayPal (${t.paypalBaseUrl}): the client id and secret are refused (HTTP ${res.status}): are they the ${t.paypalBaseUrl === PAYPAL_BASE_URLS.live ? 'live' : 'sandbox'} app's?`);
      } catch (err) {
        problems.push(`PayPal (${t.paypalBaseUrl}): could not be reached (${errName(err)})`);
      }
    }
  }

  const signerName = `framewright/${t.stage}/content-credentials`;
  const signer = await secretJson(t, signerName);
  if (signer === 'missing' || signer === 'empty' || !signer.certificateChain || !signer.privateKey) {
    problems.push(`secret ${signerName}: no signer yet (a key and a certificate from a CA on the C2PA trust list: docs/deploy.md step 5)`);
  } else {
    try {
      const leaf = new X509Certificate(String(signer.certificateChain).split(/(?=-----BEGIN CERTIFICATE-----)/)[0]!);
      if (t.stage === 'prod' && leaf.subject === leaf.issuer) problems.push(`secret ${signerName}: the certificate is self-signed (${leaf.subject}): prod signs with one from a CA on the C2PA trust list`);
      else if (t.stage === 'prod' && /Framewright Local/.test(leaf.issuer)) problems.push(`secret ${signerName}: signed by the embedded stack's local root (${leaf.issuer}): prod signs with one from a CA on the C2PA trust list`);
      if (leaf.notAfter.getTime() < Date.now()) problems.push(`secret ${signerName}: the certificate expired on ${leaf.notAfter.toISOString().slice(0, 10)}`);
    } catch (err) {
      problems.push(`secret ${signerName}: the certificate chain is not PEM (${errName(err)})`);
    }
  }
  return problems;
}

/** `-c key=value` pairs, as cdk takes them. */
function contextOf(argv: string[]): Record<string, string> {
  const context: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] !== '-c' && argv[i] !== '--context') continue;
    const [key, ...value] = (argv[++i] ?? '').split('=');
    context[key!] = value.join('=');
  }
  return context;
}

if (require.main === module) {
  const c = contextOf(process.argv.slice(2));
  const stage = c.stage ?? 'dev';
  const sender = c.senderDomain ?? c.senderEmail;
  if (!sender) {
    console.error('preflight: pass the deploy\'s flags, e.g. npm run preflight -- -c stage=prod -c senderEmail=hello@yourdomain -c alarmEmail=ops@yourdomain');
    process.exit(2);
  }
  const paypal = (c.paypal ?? (stage === 'prod' ? 'live' : 'sandbox')) as keyof typeof PAYPAL_BASE_URLS;
  const region = c.region ?? process.env.AWS_REGION;
  preflight({
    stage,
    sender,
    alarmEmail: c.alarmEmail,
    paypalBaseUrl: process.env.PAYPAL_BASE_URL || PAYPAL_BASE_URLS[paypal],
    ses: new SESv2Client({ region }),
    secrets: new SecretsManagerClient({ region }),
  }).then(
    (problems) => {
      for (const p of problems) console.log(p);
      if (problems.length === 0) console.log('preflight: ok');
      process.exit(problems.length === 0 ? 0 : 1);
    },
    (err: unknown) => {
      console.error(`preflight: ${errName(err)}: ${(err as Error).message}`);
      process.exit(2);
    },
  );
}
