/**
 * The functions as the embedded stack runs them: loaded by path (`lambdas/handlers/<name>.ts`, as CDK names them),
 * each as itself for the IAM fronts, with the environment CDK would give them, pointing at the local services.
 */
import path from 'node:path';
import { asFunction } from './iam';
import type { Services } from './services';
import { LOCAL_IDS } from './shared/local-ids';
import { localFfmpegPath } from './shared/ffmpeg-path';
import { REPO_ROOT } from './shared/paths';

/** The handler a file of `lambdas/handlers/` exports (its event type is the caller's to know: the file is found by name). */
export async function handlerOf<A extends unknown[], R>(name: string): Promise<(...args: A) => Promise<R>> {
  return ((await import(path.join(REPO_ROOT, 'lambdas', 'handlers', `${name}.ts`))) as { handler: (...args: A) => Promise<R> }).handler;
}

/** The handler, run as function `id` (its AWS calls are checked against that function's grants). */
export async function functionHandler<A extends unknown[], R>(id: string, name: string): Promise<(...args: A) => Promise<R>> {
  return asFunction(id, await handlerOf<A, R>(name));
}

/** The functions' environment: the ids, and every AWS endpoint an IAM front of the local service. */
export function functionEnvironment(s: Services, url: string): Record<string, string> {
  return {
    AWS_REGION: LOCAL_IDS.region,
    AWS_ACCESS_KEY_ID: 'S3RVER',
    AWS_SECRET_ACCESS_KEY: 'S3RVER',
    TABLE_NAME: LOCAL_IDS.tableName,
    MEDIA_BUCKET: LOCAL_IDS.mediaBucket,
    USER_POOL_ID: LOCAL_IDS.userPoolId,
    USER_POOL_CLIENT_ID: LOCAL_IDS.userPoolClientId,
    APP_URL: url,
    SES_FROM_ADDRESS: LOCAL_IDS.from,
    SUPPORT_EMAIL: LOCAL_IDS.support,
    COGNITO_JWKS_URL: s.cognito.jwksUrl,
    COGNITO_ENDPOINT: s.cognito.url,
    AWS_ENDPOINT_URL_DYNAMODB: s.iam.endpoints.dynamodb,
    AWS_ENDPOINT_URL_S3: s.iam.endpoints.s3,
    AWS_ENDPOINT_URL_SESV2: s.iam.endpoints.ses,
    AWS_ENDPOINT_URL_SES: s.iam.endpoints.ses,
    // Deleting an account calls Cognito's admin API (AdminDeleteUser) on cognito-local.
    AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: s.iam.endpoints.cognito,
    // Secrets are read at run time from the local Secrets Manager, by ARN, as in the cloud; kept a second here so a
    // changed key or a rotation shows at once (minutes in the cloud), and the old origin value is refused 10 s after one.
    AWS_ENDPOINT_URL_SECRETS_MANAGER: s.iam.endpoints.secretsManager,
    ...s.secrets.env,
    SECRETS_CACHE_SECONDS: '1',
    ORIGIN_SECRET_CACHE_SECONDS: '1',
    ORIGIN_SECRET_OVERLAP_SECONDS: process.env.ORIGIN_SECRET_OVERLAP_SECONDS ?? '10',
    // The functions that save videos run ffmpeg: the static build in node_modules (a layer in the cloud).
    FFMPEG_PATH: localFfmpegPath(),
    REPLICATE_BASE_URL: `${s.replicate.url}/v1`,
    PAYPAL_BASE_URL: s.paypal.url,
    // Powertools Metrics would print an EMF record per request to stdout; CloudWatch is not here to read them.
    POWERTOOLS_METRICS_DISABLED: 'true',
  };
}

/**
 * Adds `vars` to the functions' environment (the one the stack reports) and sets all of it in this process's, from
 * which the handlers read their configuration once, at import: so before any of them is first called.
 */
export function exportEnv(env: Record<string, string>, vars: Record<string, string> = {}): void {
  Object.assign(env, vars);
  Object.assign(process.env, env);
}
