import * as z from 'zod';

/**
 * Configuration, validated once per cold start. Handlers fail fast with a clear message when a key is missing.
 * Keys and their meaning: .env.example.
 */
const optionalUrl = z.preprocess((v) => (v === '' ? undefined : v), z.string().url().optional());
const optional = z.preprocess((v) => (v === '' ? undefined : v), z.string().optional());
const optionalSeconds = z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().min(0).optional());
const optionalMs = z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).optional());

const Env = z.object({
  AWS_REGION: z.string().min(1).default('us-east-1'),
  TABLE_NAME: z.string().min(1),
  MEDIA_BUCKET: z.string().min(1),
  USER_POOL_ID: z.string().min(1),
  USER_POOL_CLIENT_ID: z.string().min(1),
  APP_URL: z.string().url(),
  SES_FROM_ADDRESS: z.string().email(),
  SUPPORT_EMAIL: z.string().email(),
  REPLICATE_BASE_URL: optionalUrl,
  /** Every Replicate call ends within this (ms); default 10 s, under the 25 s of the functions that call it. */
  REPLICATE_TIMEOUT_MS: optionalMs,
  /** The reconciler refunds a job with no prediction id this long (ms) after its charge; default 60 s. */
  JOB_UNCONFIRMED_AFTER_MS: optionalMs,
  /** The reconciler saves a recorded output itself when the stream has not after this long (ms); default 120 s. */
  JOB_SAVE_RETRY_AFTER_MS: optionalMs,
  /** A job queued because the provider was busy is refunded when not submitted this long (ms) after; default 10 min. */
  JOB_QUEUE_MAX_WAIT_MS: optionalMs,
  /** "false": the reconciler asks the provider about every running job, even before its model's typical run time. */
  RECONCILE_ASK_AFTER_TYPICAL: z.enum(['true', 'false']).optional(),
  /** The ffmpeg binary of the functions that save videos; default /opt/bin/ffmpeg (their Lambda layer). */
  FFMPEG_PATH: optional,
  /**
   * How long a webhook delivery's claim without an outcome holds (seconds); default contract/webhooks.ts's, twice the
   * webhook functions' timeout. Never set in the cloud; the embedded stack's tests shorten it to see a lapsed claim
   * taken again within the simulators' retries.
   */
  WEBHOOK_LEASE_SECONDS: optionalSeconds,
  /** At most this many generations per user and UTC day; default 200. */
  DAILY_GENERATION_CAP: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(1).default(200)),
  PAYPAL_BASE_URL: optionalUrl,
  /** The secret holding the Replicate and PayPal keys (framewright/<stage>/app), read at run time (adapters/secrets.ts). */
  SECRETS_ARN: optional,
  /**
   * The secret holding the key of the welcome mark's address hash (HMAC-SHA256, domain/email-hash.ts): generated once
   * per stage and never changed, or an address that had its welcome credits would get them again.
   */
  WELCOME_HASH_KEY_ARN: optional,
  /** The secret holding the content-credentials signing key and certificate chain (adapters/c2pa-content-credentials.ts). */
  CONTENT_CREDENTIALS_ARN: optional,
  /** "self-signed": sign with a certificate made in the function while that secret holds none (dev stages only). */
  CONTENT_CREDENTIALS_FALLBACK: z.preprocess((v) => (v === '' ? undefined : v), z.enum(['self-signed']).optional()),
  /** The secret holding the origin header's value (contract/origin.ts), which the API checks on every request. */
  ORIGIN_SECRET_ARN: optional,
  /** How long a function keeps the app secret's keys (seconds); default 300. */
  SECRETS_CACHE_SECONDS: optionalSeconds,
  /** How long a function keeps the origin secret (seconds); default ORIGIN_SECRET_CACHE_SECONDS (contract/origin.ts). */
  ORIGIN_SECRET_CACHE_SECONDS: optionalSeconds,
  /** How long the origin header's previous value is still accepted after a rotation (seconds); default contract/origin.ts. */
  ORIGIN_SECRET_OVERLAP_SECONDS: optionalSeconds,
  /** The rotation function's CloudFront distribution, whose API origins get the new header (none locally: the single origin reads the secret). */
  DISTRIBUTION_ID: optional,
  /** Where the rotation function checks that the API accepts the new header (the API's own endpoint + /api/health). */
  ORIGIN_TEST_URL: optionalUrl,
  /** The push channel's @connections endpoint (the WebSocket stage's callback URL; a local stand-in in the embedded stack). */
  LIVE_ENDPOINT_URL: optionalUrl,
  /** Set only by the embedded stack: where cognito-local serves the pool's JWKS. */
  COGNITO_JWKS_URL: optionalUrl,
  AWS_ENDPOINT_URL_DYNAMODB: optionalUrl,
  AWS_ENDPOINT_URL_S3: optionalUrl,
  AWS_ENDPOINT_URL_SESV2: optionalUrl,
});
export type AppConfig = z.infer<typeof Env>;

let cached: AppConfig | undefined;

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = Env.safeParse(env);
  if (!parsed.success) {
    const keys = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${keys}`);
  }
  return parsed.data;
}

export function config(): AppConfig {
  cached ??= loadConfig();
  return cached;
}

/** True when the S3 endpoint is a local emulator (s3rver needs path-style URLs). */
export function isLocalS3(c: AppConfig = config()): boolean {
  return Boolean(c.AWS_ENDPOINT_URL_S3);
}
