import type { RouteDef, RouteId } from './routes';

/**
 * API Gateway's throttle per kind of route (steady requests per second, and the burst above it), each route with a
 * bucket of its own (the stage's RouteSettings): a burst of polling or a viral share page cannot take the requests
 * Replicate's and PayPal's webhooks need, and a webhook storm cannot stall the app. Over its limit a route answers
 * 429 (the app's polling backs off and retries; providers retry their webhooks).
 */
export const THROTTLES = {
  /** Provider callbacks: about one per job or payment event, retried by the provider when refused. */
  webhook: { rateLimit: 50, burstLimit: 100 },
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

/** The kind of every route of the contract (a route added to routes.ts must be given one here). */
export const ROUTE_THROTTLE_CLASS = {
  health: 'rest',
  me: 'rest',
  createUpload: 'rest',
  generateImage: 'rest',
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
  generateVideo: 'rest',
  generations: 'rest',
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
