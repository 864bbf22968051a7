import { SecretsManagerClient } from '@aws-sdk/client-secrets-manager';
import { ParameterNotFoundError } from '@aws-lambda-powertools/parameters/errors';
import { SecretsProvider } from '@aws-lambda-powertools/parameters/secrets';
import { ORIGIN_SECRET_CACHE_SECONDS, ORIGIN_SECRET_OVERLAP_SECONDS, type OriginSecretValue } from '../../contract/origin';
import { config } from '../config';
import { logger } from '../logger';
import { makeLocalSigningCredential } from './content-credentials-cert';
import { OTHER_AWS_REQUEST_MS, requestHandlerWithin } from './request-timeouts';

/**
 * Every secret is read at run time from Secrets Manager, by the ARN in the function's environment (never its value),
 * through Powertools Parameters, which keeps each value for a max age: a `put-secret-value` takes effect within it,
 * with no deploy. Locally the embedded stack's Secrets Manager answers (AWS_ENDPOINT_URL_SECRETS_MANAGER).
 */

export interface AppSecrets {
  REPLICATE_API_TOKEN?: string;
  REPLICATE_WEBHOOK_SECRET?: string;
  PAYPAL_CLIENT_ID?: string;
  PAYPAL_CLIENT_SECRET?: string;
  PAYPAL_WEBHOOK_ID?: string;
}

/** The provider keys (framewright/<stage>/app) are kept 5 minutes (SECRETS_CACHE_SECONDS overrides, e.g. locally). */
export const APP_SECRETS_CACHE_SECONDS = 300;
/** The welcome hash key never changes (a new key would make every address look new): kept an hour. */
const WELCOME_KEY_CACHE_SECONDS = 3600;

let client: SecretsManagerClient | undefined;
const secretsClient = () => (client ??= new SecretsManagerClient({ region: config().AWS_REGION, requestHandler: requestHandlerWithin(OTHER_AWS_REQUEST_MS) }));
/**
 * One provider per use: Powertools caches by name and transform only, so reads of one secret at different staging
 * labels must not share a provider. All share the one client.
 */
const provider = () => new SecretsProvider({ awsSdkV3Client: secretsClient() });

const required = (name: 'SECRETS_ARN' | 'WELCOME_HASH_KEY_ARN' | 'ORIGIN_SECRET_ARN' | 'CONTENT_CREDENTIALS_ARN') => {
  const value = config()[name];
  if (!value) throw new Error(`Invalid configuration: ${name} is required (the function's grant brings it)`);
  return value;
};

let app: SecretsProvider | undefined;
/** After a key was found empty the next read goes to Secrets Manager: operators fill the secret in after the first deploy. */
let appStale = false;

export async function requireSecret(name: keyof AppSecrets): Promise<string> {
  app ??= provider();
  const forceFetch = appStale;
  appStale = false;
  const maxAge = config().SECRETS_CACHE_SECONDS ?? APP_SECRETS_CACHE_SECONDS;
  const secrets = (await app.get<AppSecrets>(required('SECRETS_ARN'), { maxAge, transform: 'json', forceFetch })) ?? {};
  const value = secrets[name];
  if (!value) {
    appStale = true;
    throw new Error(`Missing configuration: ${name} (set it in the secret named by SECRETS_ARN)`);
  }
  return value;
}

let welcome: SecretsProvider | undefined;
/** The key of the welcome mark's address hash (domain/email-hash.ts), read when an account is made. */
export async function welcomeHashKey(): Promise<string> {
  welcome ??= provider();
  const key = await welcome.get<string>(required('WELCOME_HASH_KEY_ARN'), { maxAge: WELCOME_KEY_CACHE_SECONDS });
  if (!key) throw new Error('Invalid configuration: the welcome hash key secret is empty');
  return key;
}

let signing: SecretsProvider | undefined;
let fallbackSigner: ReturnType<typeof makeLocalSigningCredential> | undefined;
/**
 * The content-credentials signing key and certificate chain, kept an hour (a replaced certificate is used within it).
 * A fresh stage's secret holds no certificate until the operator puts one in (Secrets Manager cannot make one). In prod
 * that is an error: every save fails (and is retried, then refunded at its deadline) until it is fixed, rather than
 * marking results with a signer nobody issued. A dev stage (CONTENT_CREDENTIALS_FALLBACK=self-signed) signs with a
 * certificate made in the instance instead, so outputs are still marked as generated (readers show the signer as
 * untrusted), and says so in the log.
 */
export async function contentCredentialsSecret(): Promise<{ privateKey: string; certificateChain: string }> {
  signing ??= provider();
  const value = await signing.get<{ privateKey?: string; certificateChain?: string }>(required('CONTENT_CREDENTIALS_ARN'), { maxAge: WELCOME_KEY_CACHE_SECONDS, transform: 'json' });
  if (value?.privateKey && value.certificateChain) return { privateKey: value.privateKey, certificateChain: value.certificateChain };
  if (config().CONTENT_CREDENTIALS_FALLBACK !== 'self-signed') {
    throw new Error('Invalid configuration: the content credentials secret holds no certificate; put one in (docs/deploy.md)');
  }
  logger.warn('Content credentials secret has no certificate: signing with one made in this instance (docs/deploy.md)');
  fallbackSigner ??= makeLocalSigningCredential();
  const made = await fallbackSigner;
  return { privateKey: made.privateKey, certificateChain: made.certificateChain };
}

type Stage = 'AWSCURRENT' | 'AWSPENDING' | 'AWSPREVIOUS';
/** A value the origin check accepts, until when (epoch ms; Infinity while it is current or pending). */
interface Accepted {
  value: string;
  until: number;
}

/**
 * The origin header's values the API accepts (handlers/origin.ts): AWSCURRENT; during a rotation AWSPENDING, which
 * CloudFront starts sending before the rotation finishes; after it AWSPREVIOUS, which edges not yet updated still send,
 * until the overlap after the new value's `since` has passed. The current value is checked first, from the cache; the
 * others are read only when a request carries something else, at most once per max age per instance (what is absent
 * is remembered too), so a flood of wrong headers cannot turn into a flood of Secrets Manager calls.
 */
export function originSecret(now: () => number = Date.now) {
  const byStage: Record<Stage, SecretsProvider> = { AWSCURRENT: provider(), AWSPENDING: provider(), AWSPREVIOUS: provider() };
  let others: { accepted: Accepted[]; readUntil: number } | undefined;
  const cacheSeconds = () => config().ORIGIN_SECRET_CACHE_SECONDS ?? ORIGIN_SECRET_CACHE_SECONDS;

  async function read(stage: Stage, forceFetch: boolean): Promise<OriginSecretValue | undefined> {
    try {
      return await byStage[stage].get<OriginSecretValue>(required('ORIGIN_SECRET_ARN'), {
        maxAge: cacheSeconds(),
        transform: 'json',
        forceFetch,
        throwOnMissing: true,
        sdkOptions: { VersionStage: stage },
      });
    } catch (err) {
      // No version holds the label (no rotation is running, or none has run yet).
      if (err instanceof ParameterNotFoundError) return undefined;
      throw err;
    }
  }

  return {
    /** Whether `matches` holds for a value accepted now. */
    async accepts(matches: (value: string) => boolean): Promise<boolean> {
      const current = await read('AWSCURRENT', false);
      if (current && matches(current.header)) return true;
      const t = now();
      if (!others || others.readUntil <= t) {
        const [fresh, pending, previous] = await Promise.all([read('AWSCURRENT', true), read('AWSPENDING', true), read('AWSPREVIOUS', true)]);
        const overlapEnds = fresh?.since ? Date.parse(fresh.since) + (config().ORIGIN_SECRET_OVERLAP_SECONDS ?? ORIGIN_SECRET_OVERLAP_SECONDS) * 1000 : 0;
        const accepted: Accepted[] = [];
        if (fresh) accepted.push({ value: fresh.header, until: Infinity });
        if (pending) accepted.push({ value: pending.header, until: Infinity });
        if (previous) accepted.push({ value: previous.header, until: overlapEnds });
        others = { accepted, readUntil: t + cacheSeconds() * 1000 };
      }
      return others.accepted.some((a) => a.until > t && matches(a.value));
    },
  };
}
