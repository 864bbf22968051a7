/**
 * The one place that wires use cases to real adapters. Every piece is made on first use and kept for the
 * function instance's life, and each is a function declaration, so a handler's bundle keeps only
 * what its own use case reaches: a function that never needs a secret or a client never loads it.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { cognitoClient, dynamo, dynamoBase, s3Client, sesClient } from '../adapters/aws-clients';
import { cognitoUsers } from '../adapters/cognito-users';
import { dynamoAccountData } from '../adapters/dynamodb-account-data';
import { dynamoAccountStore } from '../adapters/dynamodb-accounts';
import { apiGatewayLiveSender } from '../adapters/apigw-live-sender';
import { cognitoIdTokenVerifier } from '../adapters/cognito-id-token';
import { dynamoCollectionIndex } from '../adapters/dynamodb-collections';
import { dynamoConnectionStore } from '../adapters/dynamodb-connections';
import { dynamoContactStore } from '../adapters/dynamodb-contact';
import { dynamoIdempotencyKeyRoutes, dynamoIdempotencyStore } from '../adapters/dynamodb-idempotency';
import { dynamoJobStore } from '../adapters/dynamodb-jobs';
import { dynamoJobStatusReader } from '../adapters/dynamodb-job-status';
import { dynamoLedgerHistory } from '../adapters/dynamodb-ledger';
import { dynamoMediaIndex } from '../adapters/dynamodb-media';
import { dynamoOrderStore } from '../adapters/dynamodb-orders';
import { dynamoWebhookInbox } from '../adapters/dynamodb-webhook-inbox';
import { healthProbes } from '../adapters/health-probes';
import { meteredJobs, meteredOrders, meteredWebhooks } from '../adapters/metered';
import { memoUntilFailure } from '../adapters/memo-until-failure';
import { PAYPAL_SANDBOX_URL, paypalApi, paypalClient } from '../adapters/paypal-client';
import { paypalWebhooks } from '../adapters/paypal-webhooks';
import { paypalSubscriptions } from '../adapters/paypal-subscriptions';
import { dynamoSubscriptionStore } from '../adapters/dynamodb-subscriptions';
import type { SubscribeDeps } from '../app/subscribe';
import type { GetSubscriptionDeps } from '../app/get-subscription';
import type { ChangeSubscriptionDeps } from '../app/change-subscription';
import type { SubscriptionDeps } from '../app/steps/subscription-payments';
import { replicateProvider } from '../adapters/replicate-provider';
import { replicateWebhooks } from '../adapters/replicate-webhooks';
import { s3MediaStore } from '../adapters/s3-media-store';
import { ffmpegMediaTools } from '../adapters/ffmpeg-media-tools';
import { contentCredentialsSecret, originSecret, requireSecret, welcomeHashKey } from '../adapters/secrets';
import { c2paContentCredentials } from '../adapters/c2pa-content-credentials';
import { sesMailer } from '../adapters/ses-mailer';
import { secretsManagerVersions } from '../adapters/secrets-manager-versions';
import { cloudFrontOriginHeader } from '../adapters/cloudfront-origin-header';
import { httpOriginProbe } from '../adapters/origin-probe';
import type { ApplyGenerationWebhookDeps } from '../app/apply-generation-webhook';
import type { ApplyPaymentWebhookDeps } from '../app/apply-payment-webhook';
import type { CancelJobDeps } from '../app/cancel-job';
import type { CheckJobStatusDeps } from '../app/check-job-status';
import type { CloseLiveConnectionDeps } from '../app/close-live-connection';
import type { FanOutDeps } from '../app/fan-out-changes';
import type { OpenLiveConnectionDeps } from '../app/open-live-connection';
import type { CreateCollectionDeps } from '../app/create-collection';
import type { DeleteCollectionDeps } from '../app/delete-collection';
import type { ListCollectionsDeps } from '../app/list-collections';
import type { RenameCollectionDeps } from '../app/rename-collection';
import type { SetCollectionMemberDeps } from '../app/set-collection-member';
import type { CreatePaymentDeps } from '../app/create-payment';
import type { CreateUploadDeps } from '../app/create-upload';
import type { DeleteAccountDeps } from '../app/delete-account';
import type { DeleteMediaDeps } from '../app/delete-media';
import type { FavoriteMediaDeps } from '../app/favorite-media';
import type { ShareMediaDeps } from '../app/share-media';
import type { ShowShareDeps } from '../app/show-share';
import type { GetAccountDeps } from '../app/get-or-create-account';
import type { GetMediaDeps } from '../app/get-media';
import type { ListMediaDeps } from '../app/list-media';
import type { GetPaymentOutcomeDeps } from '../app/get-payment-outcome';
import type { ReconcileOrdersDeps } from '../app/reconcile-orders';
import type { ReconcileSubscriptionsDeps } from '../app/reconcile-subscriptions';
import type { ListPaymentsDeps } from '../app/list-payments';
import { DEFAULT_LIMITS, type ReconcileJobsDeps } from '../app/reconcile-jobs';
import type { RotateOriginSecretDeps } from '../app/rotate-origin-secret';
import type { SaveJobOutputDeps } from '../app/save-job-output';
import type { SendContactDeps } from '../app/send-contact';
import type { StartGenerationDeps } from '../app/start-generation';
import type { SettleDeps } from '../app/steps/settle-order';
import { ORIGIN_SECRET_CACHE_SECONDS } from '../../contract/origin';
import { config } from '../config';
import { logger } from '../logger';
import { businessMetrics } from '../observability';
import { BusinessMetric } from '../ports/metrics';
import type { Probe } from '../ports/health';

/** Memoises a factory: made on first call, then shared. */
function once<T>(make: () => T): () => T {
  let made: { value: T } | undefined;
  return () => (made ??= { value: make() }).value;
}

const now = () => new Date();
/** One ffmpeg run (probe, last frame, poster, the join of two 5 s segments) ends within this, inside the 29 s functions. */
const FFMPEG_TIMEOUT_MS = 20_000;
const table = () => config().TABLE_NAME;
const warn = (message: string, details: Record<string, unknown>) => logger.warn(message, details);

// ---- ports, each made once -------------------------------------------------------------------------------------

const accounts = /* @__PURE__ */ once(() => dynamoAccountStore(dynamo(), table(), welcomeHashKey));
// Jobs and orders count what they did (business metrics: adapters/metered.ts).
const jobs = /* @__PURE__ */ once(() => meteredJobs(dynamoJobStore(dynamo(), table()), businessMetrics));
const reconcilerJobs = /* @__PURE__ */ once(() =>
  meteredJobs(dynamoJobStore(dynamo(), table()), businessMetrics, { refundsAs: BusinessMetric.ReconcilerRefund }),
);
const media = /* @__PURE__ */ once(() => dynamoMediaIndex(dynamo(), table()));
const collections = /* @__PURE__ */ once(() => dynamoCollectionIndex(dynamo(), table()));
const orders = /* @__PURE__ */ once(() => meteredOrders(dynamoOrderStore(dynamo(), table()), businessMetrics));
const store = /* @__PURE__ */ once(() => s3MediaStore(s3Client(), config().MEDIA_BUCKET));
const connections = /* @__PURE__ */ once(() => dynamoConnectionStore(dynamo(), table()));
/** Keeps the pool's keys for the instance's life, like the JWT authorizer. */
const idTokens = /* @__PURE__ */ once(() => cognitoIdTokenVerifier(config().USER_POOL_ID, config().USER_POOL_CLIENT_ID, config().COGNITO_JWKS_URL));
const liveSender = /* @__PURE__ */ once(() => {
  const c = config();
  if (!c.LIVE_ENDPOINT_URL) throw new Error('Invalid configuration: LIVE_ENDPOINT_URL is required by the fan-out');
  return apiGatewayLiveSender(c.AWS_REGION, c.LIVE_ENDPOINT_URL);
});

/**
 * Made again when the keys it is made from change: they are read at run time (cached for a max age), so a key put into
 * the secret is used within that age, with no deploy.
 */
function remadeOnChange<K extends readonly unknown[], T>(inputs: () => Promise<K>, make: (inputs: K) => T): () => Promise<T> {
  let made: { inputs: K; value: T } | undefined;
  return async () => {
    const now = await inputs();
    if (!made || now.some((v, i) => v !== made!.inputs[i])) made = { inputs: now, value: make(now) };
    return made.value;
  };
}

/** Replicate's client, with the token the secret holds now. */
const modelProvider = /* @__PURE__ */ once(() =>
  remadeOnChange(
    async () => [await requireSecret('REPLICATE_API_TOKEN')],
    ([token]) =>
      replicateProvider({
        token: token!,
        baseUrl: config().REPLICATE_BASE_URL,
        timeoutMs: config().REPLICATE_TIMEOUT_MS,
        // One series each, no dimension: the quota alarms watch them against Replicate's two limits.
        onCall: (kind) => businessMetrics.count(kind === 'create' ? BusinessMetric.ProviderCreates : BusinessMetric.ProviderOtherRequests, 1),
      }),
  ),
);

/** PayPal's API (one token cache per instance), with the credentials the secret holds now. */
const paypal = /* @__PURE__ */ once(() =>
  remadeOnChange(
    () => Promise.all([requireSecret('PAYPAL_CLIENT_ID'), requireSecret('PAYPAL_CLIENT_SECRET')]),
    // Without PAYPAL_BASE_URL the sandbox: going live is a deliberate configuration change.
    ([clientId, clientSecret]) => paypalApi({ baseUrl: config().PAYPAL_BASE_URL ?? PAYPAL_SANDBOX_URL, clientId: clientId!, clientSecret: clientSecret! }),
  ),
);
const paymentProvider = /* @__PURE__ */ once(() => remadeOnChange(async () => [await paypal()()] as const, ([api]) => paypalClient(api)));
const subscriptionProvider = /* @__PURE__ */ once(() => remadeOnChange(async () => [await paypal()()] as const, ([api]) => paypalSubscriptions(api)));
const paymentWebhooks = /* @__PURE__ */ once(() =>
  remadeOnChange(
    async () => [await paypal()(), await requireSecret('PAYPAL_WEBHOOK_ID')] as const,
    ([api, webhookId]) => meteredWebhooks(paypalWebhooks(api, webhookId), 'paypal', businessMetrics),
  ),
);

const account = /* @__PURE__ */ once((): GetAccountDeps => ({ accounts: accounts(), now }));

const webhookUrl = () => `${config().APP_URL}/api/webhooks/replicate`;
/** ffmpeg, for the functions that save videos (a layer at /opt/bin/ffmpeg in the cloud, FFMPEG_PATH locally). */
const mediaTools = /* @__PURE__ */ once(() => {
  const tools = ffmpegMediaTools({ binary: config().FFMPEG_PATH ?? '/opt/bin/ffmpeg', timeoutMs: FFMPEG_TIMEOUT_MS });
  return async () => tools;
});

/** The content-credentials signer, made again when the secret's key or certificate is replaced. */
const credentials = /* @__PURE__ */ once(() =>
  remadeOnChange(
    async () => {
      const s = await contentCredentialsSecret();
      return [s.privateKey, s.certificateChain] as const;
    },
    ([privateKey, certificateChain]) => c2paContentCredentials({ privateKey, certificateChain }),
  ),
);

const startJob = /* @__PURE__ */ once(() => ({
  jobs: jobs(),
  media: media(),
  store: store(),
  provider: modelProvider(),
  webhookUrl: webhookUrl(),
  now,
  dailyGenerationCap: config().DAILY_GENERATION_CAP,
  metrics: businessMetrics,
}));

const generationWebhooks = /* @__PURE__ */ once(() =>
  memoUntilFailure(async () => meteredWebhooks(replicateWebhooks(() => requireSecret('REPLICATE_WEBHOOK_SECRET')), 'replicate', businessMetrics)),
);
/** Replicate's webhook deliveries already handled, remembered for a week. */
const replicateInbox = /* @__PURE__ */ once(() => dynamoWebhookInbox(dynamo(), table(), 'replicate', { keepDays: 7 }));
const paypalInbox = /* @__PURE__ */ once(() => dynamoWebhookInbox(dynamo(), table(), 'paypal'));
/** The claims' lease: contract/webhooks.ts's unless WEBHOOK_LEASE_SECONDS shortens it (the embedded stack's tests only). */
const webhookLease = (): { webhookLeaseMs?: number } => {
  const seconds = config().WEBHOOK_LEASE_SECONDS;
  return seconds === undefined ? {} : { webhookLeaseMs: seconds * 1000 };
};

const mailer = /* @__PURE__ */ once(() => sesMailer(sesClient(), config().SES_FROM_ADDRESS));
const settle = /* @__PURE__ */ once((): SettleDeps => ({ orders: orders(), provider: paymentProvider(), accounts: accounts(), mailer: mailer(), now, log: warn }));
const subscriptions = /* @__PURE__ */ once(() => dynamoSubscriptionStore(dynamo(), table()));
const subscriptionSteps = /* @__PURE__ */ once(
  (): SubscriptionDeps => ({ subscriptions: subscriptions(), subscriptionProvider: subscriptionProvider(), accounts: accounts(), mailer: mailer(), now, log: warn }),
);

// ---- one set of dependencies per use case ---------------------------------------------------------------------

export function getAccountDeps(): GetAccountDeps {
  return account();
}

export function startGenerationDeps(): StartGenerationDeps {
  return { ...account(), ...startJob() };
}

export function checkJobStatusDeps(): CheckJobStatusDeps {
  return { status: dynamoJobStatusReader(dynamo(), table()), jobs: jobs(), media: media(), store: store(), provider: modelProvider(), now };
}

export function applyGenerationWebhookDeps(): ApplyGenerationWebhookDeps {
  return {
    jobs: jobs(),
    now,
    webhooks: generationWebhooks(),
    inbox: replicateInbox(),
    ...webhookLease(),
  };
}

export function saveJobOutputDeps(): SaveJobOutputDeps {
  return { jobs: jobs(), store: store(), media: media(), tools: mediaTools(), credentials: credentials(), provider: modelProvider(), webhookUrl: webhookUrl(), now, log: warn };
}

export function reconcileJobsDeps(): ReconcileJobsDeps {
  const c = config();
  return {
    jobs: reconcilerJobs(),
    store: store(),
    media: media(),
    tools: mediaTools(),
    credentials: credentials(),
    provider: modelProvider(),
    webhookUrl: webhookUrl(),
    now,
    limits: {
      ...DEFAULT_LIMITS,
      ...(c.JOB_UNCONFIRMED_AFTER_MS !== undefined ? { unconfirmedAfterMs: c.JOB_UNCONFIRMED_AFTER_MS } : {}),
      ...(c.JOB_SAVE_RETRY_AFTER_MS !== undefined ? { saveAfterMs: c.JOB_SAVE_RETRY_AFTER_MS } : {}),
      ...(c.JOB_QUEUE_MAX_WAIT_MS !== undefined ? { queueMaxWaitMs: c.JOB_QUEUE_MAX_WAIT_MS } : {}),
      ...(c.RECONCILE_ASK_AFTER_TYPICAL === 'false' ? { askAfterTypical: false } : {}),
    },
    log: warn,
  };
}

export function listMediaDeps(): ListMediaDeps {
  return { media: media(), collections: collections(), store: store(), appUrl: config().APP_URL };
}

export function listCollectionsDeps(): ListCollectionsDeps {
  return { collections: collections() };
}

export function createCollectionDeps(): CreateCollectionDeps {
  return { collections: collections(), now };
}

export function renameCollectionDeps(): RenameCollectionDeps {
  return { collections: collections() };
}

export function deleteCollectionDeps(): DeleteCollectionDeps {
  return { collections: collections() };
}

export function setCollectionMemberDeps(): SetCollectionMemberDeps {
  return { collections: collections() };
}

export function favoriteMediaDeps(): FavoriteMediaDeps {
  return { media: media() };
}

export function shareMediaDeps(): ShareMediaDeps {
  return { media: media(), appUrl: config().APP_URL, now };
}

export function showShareDeps(): ShowShareDeps {
  return { media: media(), store: store(), appUrl: config().APP_URL };
}

/** Whether the sub's account was deleted (its tombstone): every signed-in route asks first (handlers/http.ts). */
/**
 * Where a route's Idempotency-Key records live: one persistence per route, since Powertools keeps the key prefix it is
 * configured with on the store itself (locally every route shares this module).
 */
const idempotencyStores = new Map<string, ReturnType<typeof dynamoIdempotencyStore>>();
export function idempotencyStore(routeId: string): ReturnType<typeof dynamoIdempotencyStore> {
  let store = idempotencyStores.get(routeId);
  if (!store) idempotencyStores.set(routeId, (store = dynamoIdempotencyStore(dynamoBase(), table())));
  return store;
}

/** The route each Idempotency-Key was first sent to (a key belongs to one route). */
export const idempotencyKeyRoutes = /* @__PURE__ */ once(() => dynamoIdempotencyKeyRoutes(dynamo(), table()));

export function isAccountDeleted(sub: string): Promise<boolean> {
  return accounts().isDeleted(sub);
}

export function deleteAccountDeps(): DeleteAccountDeps {
  const c = config();
  return {
    data: dynamoAccountData(dynamo(), table()),
    store: store(),
    users: cognitoUsers(cognitoClient(), c.USER_POOL_ID),
    subscriptions: subscriptions(),
    subscriptionProvider: subscriptionProvider(),
    now,
    log: warn,
  };
}

export function getMediaDeps(): GetMediaDeps {
  return { media: media(), store: store(), appUrl: config().APP_URL };
}

export function cancelJobDeps(): CancelJobDeps {
  return { jobs: jobs(), status: dynamoJobStatusReader(dynamo(), table()), provider: modelProvider(), now, log: warn };
}

export function deleteMediaDeps(): DeleteMediaDeps {
  return { media: media(), store: store() };
}

export function createUploadDeps(): CreateUploadDeps {
  return { store: store(), now };
}

export function createPaymentDeps(): CreatePaymentDeps {
  return { ...account(), orders: orders(), provider: paymentProvider(), appUrl: config().APP_URL, now, newRequestId: () => randomUUID(), log: warn };
}

export function settlePaymentReturnDeps(): SettleDeps {
  return settle();
}

/** Only the order store: cancelling asks PayPal nothing, so this function never loads the PayPal client or its secret. */
export function cancelPaymentReturnDeps(): Pick<SettleDeps, 'orders' | 'log' | 'now'> {
  return { orders: orders(), log: warn, now };
}

export function reconcileOrdersDeps(): ReconcileOrdersDeps {
  return settle();
}

export function reconcileSubscriptionsDeps(): ReconcileSubscriptionsDeps {
  return { ...settle(), ...subscriptionSteps() };
}

export function getPaymentOutcomeDeps(): GetPaymentOutcomeDeps {
  return { orders: orders(), accounts: accounts(), now };
}

export function applyPaymentWebhookDeps(): ApplyPaymentWebhookDeps {
  return {
    ...settle(),
    subscriptions: subscriptions(),
    subscriptionProvider: subscriptionProvider(),
    webhooks: paymentWebhooks(),
    inbox: paypalInbox(),
    ...webhookLease(),
  };
}

export function subscribeDeps(): SubscribeDeps {
  return { subscriptions: subscriptions(), subscriptionProvider: subscriptionProvider(), log: warn, ...account(), appUrl: config().APP_URL, newRequestId: () => randomUUID() };
}

/** The caller's plan: a pending one is read at PayPal (and what it took granted, with its receipt). */
export function getSubscriptionDeps(): GetSubscriptionDeps {
  return subscriptionSteps();
}

/** Cancel: the subscription steps. */
export function subscriptionDeps(): SubscriptionDeps {
  return subscriptionSteps();
}

export function changeSubscriptionDeps(): ChangeSubscriptionDeps {
  return { subscriptions: subscriptions(), subscriptionProvider: subscriptionProvider(), log: warn, appUrl: config().APP_URL };
}

export function listPaymentsDeps(): ListPaymentsDeps {
  return { orders: orders(), ledger: dynamoLedgerHistory(dynamo(), table()), now };
}

export function sendContactDeps(): SendContactDeps {
  const c = config();
  return { store: dynamoContactStore(dynamo(), c.TABLE_NAME), mailer: sesMailer(sesClient(), c.SES_FROM_ADDRESS), supportEmail: c.SUPPORT_EMAIL, now };
}

export function openLiveConnectionDeps(): OpenLiveConnectionDeps {
  return { connections: connections(), verify: idTokens(), isDeleted: isAccountDeleted, now };
}

export function closeLiveConnectionDeps(): CloseLiveConnectionDeps {
  return { connections: connections() };
}

export function fanOutDeps(): FanOutDeps {
  return { connections: connections(), sender: liveSender(), store: store(), media: media(), now };
}

export function healthDeps(): Record<string, Probe> {
  return healthProbes(config());
}

/** The origin header's accepted values (every API function and the push channel's $connect check them first). */
export const originSecretValues = /* @__PURE__ */ once(() => originSecret());

/** The origin secret's rotation function. */
export function rotateOriginSecretDeps(): RotateOriginSecretDeps {
  const c = config();
  if (!c.ORIGIN_TEST_URL) throw new Error('Invalid configuration: ORIGIN_TEST_URL is required by the rotation');
  return {
    versions: secretsManagerVersions(c.AWS_REGION),
    // Locally there is no distribution: the single origin reads the secret's
    // stages itself, sending AWSPENDING once it exists, as the distribution does after setSecret.
    edge: c.DISTRIBUTION_ID
      ? cloudFrontOriginHeader(c.DISTRIBUTION_ID)
      : { set: async () => logger.info('No DISTRIBUTION_ID: the origin that sends the header reads it from the secret') },
    probe: httpOriginProbe(c.ORIGIN_TEST_URL),
    newHeader: () => randomBytes(36).toString('base64url'),
    now,
    sleep: (ms) => new Promise((r) => setTimeout(r, ms)),
    cacheSeconds: c.ORIGIN_SECRET_CACHE_SECONDS ?? ORIGIN_SECRET_CACHE_SECONDS,
  };
}
