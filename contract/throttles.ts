import type { RouteDef, RouteId } from './routes';

/**
 * API Gateway's throttle per kind of route (steady requests per second, and the burst above it), each route with a
 * bucket of its own (the stage's RouteSettings): a burst of polling or a viral share page cannot take the requests
 * Replicate's and PayPal's webhooks need, and a webhook storm cannot stall the app. Over its limit a route answers
 * 429 (the app's polling backs off and retries; providers retry their webhooks).
 */
export const THROTTLES = {
  /**
   * Provider callbacks: a prediction's start and completion (two a create: 20/s at Replicate's 600 creates a minute)
   * and PayPal's payment events, retried by the provider when refused. The burst is no deeper than the rate: every
   * request of a burst runs at once, and the webhook functions' reserved concurrency (lib/constructs/concurrency.ts)
   * must hold the burst and a second of the rate, or Lambda's throttle answers 500 (test/infra/limits.test.ts).
   */
  webhook: { rateLimit: 30, burstLimit: 30 },
  /**
   * Starting a job (generate-image, generate-video, generations): a start holds its function while the model runs
   * with `Prefer: wait` (seconds), so the burst and the rate times that hold must fit the generation functions'
   * reserved concurrency (lib/constructs/concurrency.ts); past the throttle a start is answered 429, never Lambda's
   * 500. The rate holds the capacity model's design peak (test/domain/capacity.test.ts).
   */
  generation: { rateLimit: 20, burstLimit: 20 },
  /** Public share links (page, file, poster): crawlers unfurl a shared link in bursts when it goes around. */
  share: { rateLimit: 100, burstLimit: 200 },
  /** The job poll: every open job of every signed-in user asks every few seconds. */
  polling: { rateLimit: 100, burstLimit: 200 },
  /** Starting, returning from and reading PayPal payments: people, a few a minute. */
  payments: { rateLimit: 10, burstLimit: 20 },
  /** Everything else (the stage's default). */
  rest: { rateLimit: 50, burstLimit: 100 },
} as const;

export type ThrottleClass = keyof typeof THROTTLES;

/**
 * API Gateway answers a throttled request 429 with no Retry-After; CloudFront's /api/* behaviour adds this one to an
 * answer that has none (a response headers policy header that does not override the origin's: an answer of ours
 * that knows its wait keeps it). A route's bucket refills a token in a second at the lowest rate of all.
 */
export const THROTTLE_RETRY_AFTER_SECONDS = 1;

/** The kind of every route of the contract (a route added to routes.ts must be given one here). */
export const ROUTE_THROTTLE_CLASS = {
  health: 'rest',
  me: 'rest',
  createUpload: 'rest',
  generateImage: 'generation',
  checkStatus: 'polling',
  listMedia: 'rest',
  deleteMedia: 'rest',
  favoriteMedia: 'rest',
  unfavoriteMedia: 'rest',
  shareMedia: 'rest',
  unshareMedia: 'rest',
  listCollections: 'rest',
  createCollection: 'rest',
  renameCollection: 'rest',
  deleteCollection: 'rest',
  addToCollection: 'rest',
  removeFromCollection: 'rest',
  sharePage: 'share',
  shareFile: 'share',
  sharePoster: 'share',
  deleteAccount: 'rest',
  replicateWebhook: 'webhook',
  sendContact: 'rest',
  generateVideo: 'generation',
  generations: 'generation',
  models: 'rest',
  cancelJob: 'rest',
  getMedia: 'rest',
  createPaypalPayment: 'payments',
  paypalReturn: 'payments',
  paypalCancel: 'payments',
  paypalWebhook: 'webhook',
  paymentOutcome: 'payments',
  listPayments: 'payments',
  plans: 'rest',
  createSubscription: 'payments',
  getSubscription: 'rest',
  cancelSubscription: 'payments',
  changeSubscription: 'payments',
  subscriptionReturn: 'payments',
} as const satisfies Record<RouteId, ThrottleClass>;

/** A route's throttle kind: a signature-checked route is always a webhook; a route the table does not know, `rest`. */
export function throttleClassOf(route: Pick<RouteDef, 'id' | 'auth'>): ThrottleClass {
  if (route.auth === 'signature') return 'webhook';
  return (ROUTE_THROTTLE_CLASS as Record<string, ThrottleClass>)[route.id] ?? 'rest';
}
