import * as z from 'zod';
import { Messages } from './errors';
import * as s from './schemas';
import * as pay from './payments';
import * as sub from './subscriptions';
import type { KeyScope } from './permissions';

/**
 * An id in a path (a job, a media item). Ours are `<epoch ms>-<12 hex>` (lambdas/domain/ids); this is looser, so an
 * id made another way still passes, but it keeps out what can name nothing: DynamoDB keys have a size limit, and
 * text with controls, slashes or dots is not an id.
 */
export const PathId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/, Messages.invalidPathId);

/**
 * How a route is protected:
 * - none: public.
 * - user: a verified Cognito ID token (JWT authorizer in the cloud, the local gateway here).
 * - signature: the handler verifies a provider signature (webhooks).
 */
export type RouteAuth = 'none' | 'user' | 'signature';
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'DELETE';

export interface RouteDef {
  /** Stable id, used for function names and CDK ids. */
  id: string;
  method: HttpMethod;
  /** API Gateway path syntax: /api/check-status/{predictionId}. */
  path: string;
  auth: RouteAuth;
  /** File under lambdas/handlers/ (without .ts) exporting `handler`. */
  handler: string;
  request?: z.ZodType;
  /** The query string the handler accepts (http.ts validates it). */
  query?: z.ZodType;
  /** The path parameters, decoded (http.ts validates them); a route with `{name}` in its path has one. */
  params?: z.ZodType;
  response?: z.ZodType;
  /**
   * Takes an `Idempotency-Key` header (contract/idempotency.ts): the same key and body from the same user within a day
   * answer as the first call did, and charge or order once.
   */
  idempotencyKey?: true;
  /** Lambda timeout in seconds (API Gateway caps integrations at 29 s). */
  timeoutSeconds?: number;
  memoryMb?: number;
  /** What the function may touch in the cloud; CDK grants exactly this (IAM statements: contract/permissions.ts). */
  grants: readonly Grant[];
  /** Narrows its table grants to these partition keys (dynamodb:LeadingKeys), for functions anyone can call. */
  tableKeys?: KeyScope;
}

export type Grant =
  | 'table:read'
  | 'table:write'
  /** Query the sparse index gsi1 (lib/table-schema.ts), e.g. for open jobs. */
  | 'table:index:gsi1'
  /** Query the sparse, sharded open-jobs index (lib/table-schema.ts). */
  | 'table:index:open-jobs'
  | 'media:read'
  | 'media:write'
  | 'media:delete'
  | 'ses:send'
  | 'ses:read'
  | 'cognito:read'
  /** Delete a user of the pool (DELETE /api/me). */
  | 'cognito:delete-user'
  /** List the media bucket's objects under users/ (deleting an account removes every object of its prefix). */
  | 'media:list'
  /** Read the app secret's Replicate keys (framewright/<stage>/app). */
  | 'secret:replicate'
  /** Read the app secret's PayPal keys (framewright/<stage>/app). */
  | 'secret:paypal'
  /** Read the origin header's secret: every route's function checks the header first (lambdas/handlers/http.ts). */
  | 'secret:origin'
  /** Read the welcome mark's hash key (the routes that can create an account). */
  | 'secret:welcome-hash'
  /** Read the content-credentials signing key and certificate (the functions that save results). */
  | 'secret:content-credentials'
  /** Rotate the origin secret: read, write and move its versions' labels (its rotation function only). */
  | 'secret:origin:rotate'
  /** Change the origin header CloudFront sends to the API origins (the origin secret's rotation function only). */
  | 'cloudfront:origin-header'
  /** Send to and close the push channel's connections (API Gateway's @connections API). */
  | 'live:send';

/**
 * Every HTTP route, grouped by what it serves. The push channel's WebSocket routes are LIVE_ROUTES (contract/live.ts);
 * background functions are in contract/functions.ts.
 */
export const ROUTES = [
  // ---- the account: the caller's profile and balance (made on first use), and deleting it ----
  {
    id: 'me',
    method: 'GET',
    path: '/api/me',
    auth: 'user',
    handler: 'get-me',
    response: s.MeResponse,
    grants: ['table:read', 'table:write', 'secret:origin', 'secret:welcome-hash'],
  },
  {
    // Deletes the caller's account and data; needs a sign-in of the last few minutes (the password confirmed again).
    id: 'deleteAccount',
    method: 'DELETE',
    path: '/api/me',
    auth: 'user',
    handler: 'delete-account',
    timeoutSeconds: 25,
    // secret:paypal: the account's plan is cancelled at PayPal before anything is erased.
    grants: ['table:read', 'table:write', 'media:list', 'media:delete', 'cognito:delete-user', 'secret:paypal', 'secret:origin'],
  },
  // ---- generation: a start image's upload, starting images and videos (charged), following and cancelling a job ----
  {
    id: 'createUpload',
    method: 'POST',
    path: '/api/uploads',
    auth: 'user',
    handler: 'create-upload',
    request: s.CreateUploadRequest,
    response: s.CreateUploadResponse,
    grants: ['table:read', 'media:write', 'secret:origin'],
  },
  {
    id: 'generateImage',
    method: 'POST',
    path: '/api/generate-image',
    auth: 'user',
    handler: 'generate-image',
    idempotencyKey: true,
    request: s.GenerateImageRequest,
    response: s.GenerationResponse,
    timeoutSeconds: 25,
    grants: ['table:read', 'table:write', 'media:read', 'secret:replicate', 'secret:origin', 'secret:welcome-hash'],
  },
  {
    id: 'generateVideo',
    method: 'POST',
    path: '/api/generate-video',
    auth: 'user',
    handler: 'generate-video',
    idempotencyKey: true,
    request: s.GenerateVideoRequest,
    response: s.GenerationResponse,
    timeoutSeconds: 25,
    grants: ['table:read', 'table:write', 'media:read', 'secret:replicate', 'secret:origin', 'secret:welcome-hash'],
  },
  {
    // Every model and operation through one use case; generate-image and generate-video are its aliases.
    id: 'generations',
    method: 'POST',
    path: '/api/generations',
    auth: 'user',
    handler: 'generations',
    idempotencyKey: true,
    request: s.GenerationsRequest,
    response: s.GenerationResponse,
    timeoutSeconds: 25,
    grants: ['table:read', 'table:write', 'media:read', 'secret:replicate', 'secret:origin', 'secret:welcome-hash'],
  },
  {
    // Public and the same for everyone until the next deploy: browsers and CloudFront may keep it a few minutes.
    id: 'models',
    method: 'GET',
    path: '/api/models',
    auth: 'none',
    handler: 'list-models',
    response: s.ModelsResponse,
    grants: ['secret:origin'],
  },
  {
    id: 'checkStatus',
    method: 'GET',
    path: '/api/check-status/{predictionId}',
    auth: 'user',
    handler: 'check-status',
    params: z.object({ predictionId: PathId }),
    response: s.CheckStatusResponse,
    timeoutSeconds: 25,
    memoryMb: 1024,
    grants: ['table:read', 'table:write', 'media:read', 'media:write', 'secret:replicate', 'secret:origin'],
  },
  {
    // Owner-only (another user's or an unknown id: 404). While the provider has not begun the job its credits come
    // back in full; once it runs, the provider bills it: without acceptCharge the answer is 409 (the confirmation).
    id: 'cancelJob',
    method: 'POST',
    path: '/api/jobs/{id}/cancel',
    auth: 'user',
    handler: 'cancel-job',
    params: z.object({ id: PathId }),
    request: s.CancelJobRequest,
    response: s.CancelJobResponse,
    timeoutSeconds: 25,
    grants: ['table:read', 'table:write', 'secret:replicate', 'secret:origin'],
  },
  // ---- the caller's media: the gallery's list and items, deleting, starring and sharing them ----
  {
    id: 'listMedia',
    method: 'GET',
    path: '/api/media',
    auth: 'user',
    handler: 'list-media',
    query: s.ListMediaQuery,
    response: s.ListMediaResponse,
    grants: ['table:read', 'media:read', 'secret:origin'],
  },
  {
    // One of the caller's media items (reuse its prompt and settings, keep a picked preview): 404 for anyone else's.
    id: 'getMedia',
    method: 'GET',
    path: '/api/media/{id}',
    auth: 'user',
    handler: 'get-media',
    params: z.object({ id: PathId }),
    response: s.MediaItemView,
    grants: ['table:read', 'media:read', 'secret:origin'],
  },
  {
    id: 'deleteMedia',
    method: 'DELETE',
    path: '/api/media/{id}',
    auth: 'user',
    handler: 'delete-media',
    params: z.object({ id: PathId }),
    grants: ['table:read', 'table:write', 'media:delete', 'secret:origin'],
  },
  {
    id: 'favoriteMedia',
    method: 'PUT',
    path: '/api/media/{id}/favorite',
    auth: 'user',
    handler: 'favorite-media',
    params: z.object({ id: PathId }),
    response: s.FavoriteResponse,
    grants: ['table:read', 'table:write', 'secret:origin'],
  },
  {
    id: 'unfavoriteMedia',
    method: 'DELETE',
    path: '/api/media/{id}/favorite',
    auth: 'user',
    handler: 'unfavorite-media',
    params: z.object({ id: PathId }),
    response: s.FavoriteResponse,
    grants: ['table:read', 'table:write', 'secret:origin'],
  },
  {
    id: 'shareMedia',
    method: 'POST',
    path: '/api/media/{id}/share',
    auth: 'user',
    handler: 'share-media',
    params: z.object({ id: PathId }),
    request: s.ShareMediaRequest,
    response: s.ShareMediaResponse,
    grants: ['table:read', 'table:write', 'secret:origin'],
  },
  {
    id: 'unshareMedia',
    method: 'DELETE',
    path: '/api/media/{id}/share',
    auth: 'user',
    handler: 'unshare-media',
    params: z.object({ id: PathId }),
    grants: ['table:read', 'table:write', 'secret:origin'],
  },
  {
    id: 'listCollections',
    method: 'GET',
    path: '/api/collections',
    auth: 'user',
    handler: 'list-collections',
    response: s.ListCollectionsResponse,
    grants: ['table:read', 'secret:origin'],
  },
  {
    id: 'createCollection',
    method: 'POST',
    path: '/api/collections',
    auth: 'user',
    handler: 'create-collection',
    request: s.CollectionNameRequest,
    response: s.CollectionView,
    grants: ['table:read', 'table:write', 'secret:origin'],
  },
  {
    id: 'renameCollection',
    method: 'PUT',
    path: '/api/collections/{id}',
    auth: 'user',
    handler: 'rename-collection',
    params: z.object({ id: PathId }),
    request: s.CollectionNameRequest,
    response: s.CollectionView,
    grants: ['table:read', 'table:write', 'secret:origin'],
  },
  {
    // The collection goes; its results stay (each loses the collection's id from its memberships).
    id: 'deleteCollection',
    method: 'DELETE',
    path: '/api/collections/{id}',
    auth: 'user',
    handler: 'delete-collection',
    params: z.object({ id: PathId }),
    grants: ['table:read', 'table:write', 'secret:origin'],
  },
  {
    id: 'addToCollection',
    method: 'PUT',
    path: '/api/collections/{id}/items/{mediaId}',
    auth: 'user',
    handler: 'add-to-collection',
    params: z.object({ id: PathId, mediaId: PathId }),
    response: s.CollectionItemResponse,
    grants: ['table:read', 'table:write', 'secret:origin'],
  },
  {
    id: 'removeFromCollection',
    method: 'DELETE',
    path: '/api/collections/{id}/items/{mediaId}',
    auth: 'user',
    handler: 'remove-from-collection',
    params: z.object({ id: PathId, mediaId: PathId }),
    response: s.CollectionItemResponse,
    grants: ['table:read', 'table:write', 'secret:origin'],
  },
  // ---- payments: buying credits with PayPal, the browser's two redirects back from PayPal, what the landing page may say, My Payments ----
  {
    id: 'createPaypalPayment',
    method: 'POST',
    path: '/api/create-paypal-payment',
    auth: 'user',
    handler: 'create-paypal-payment',
    idempotencyKey: true,
    request: pay.CreatePaymentRequest,
    response: pay.CreatePaymentResponse,
    timeoutSeconds: 25,
    grants: ['table:read', 'table:write', 'secret:paypal', 'secret:origin', 'secret:welcome-hash'],
  },
  {
    // PayPal sends the buyer's browser here after approval: no Cognito token. Answers with a 302 to
    // paymentReturnPath(outcome, the order's returnPath) (contract/payments), never with JSON; or back to
    // PayPal's approval page when the capture was declined for the buyer's funding source. Sends the receipt.
    id: 'paypalReturn',
    method: 'GET',
    path: '/api/paypal/return',
    auth: 'none',
    handler: 'paypal-return',
    query: pay.PaypalRedirectQuery,
    timeoutSeconds: 25,
    grants: ['table:read', 'table:write', 'secret:paypal', 'ses:send', 'secret:origin'],
  },
  {
    // The buyer cancelled on PayPal: a 302 to the order's return path with `payment=cancel`. An order PayPal
    // says is still unapproved is marked canceled (a later approval still settles it).
    id: 'paypalCancel',
    method: 'GET',
    path: '/api/paypal/cancel',
    auth: 'none',
    handler: 'paypal-cancel',
    query: pay.PaypalRedirectQuery,
    grants: ['table:read', 'table:write', 'secret:origin'],
    tableKeys: 'orders',
  },
  {
    // What to show after a PayPal return, asked by the page it landed on (public: the landing page may have no
    // session). Answers only from our stored order; a bad id is a 400, an unknown one a 404.
    id: 'paymentOutcome',
    method: 'GET',
    path: '/api/payment-outcome',
    auth: 'none',
    handler: 'payment-outcome',
    query: pay.PaymentOutcomeQuery,
    response: pay.PaymentOutcomeResponse,
    grants: ['table:read', 'secret:origin'],
    tableKeys: 'orders',
  },
  {
    id: 'listPayments',
    method: 'GET',
    path: '/api/payments',
    auth: 'user',
    handler: 'list-payments',
    query: pay.ListPaymentsQuery,
    response: pay.ListPaymentsResponse,
    grants: ['table:read', 'secret:origin'],
  },
  // ---- payments: monthly plans through PayPal Subscriptions ----
  {
    // Public and cacheable (Cache-Control: public, max-age=300): the plans change only with a deploy.
    id: 'plans',
    method: 'GET',
    path: '/api/plans',
    auth: 'none',
    handler: 'list-plans',
    response: sub.PlansResponse,
    grants: ['secret:origin'],
  },
  {
    // 409 while a plan is active or suspended (change it or cancel it instead).
    id: 'createSubscription',
    method: 'POST',
    path: '/api/subscriptions',
    auth: 'user',
    handler: 'create-subscription',
    request: sub.CreateSubscriptionRequest,
    response: sub.ApprovalResponse,
    timeoutSeconds: 25,
    grants: ['table:read', 'table:write', 'secret:paypal', 'secret:origin', 'secret:welcome-hash'],
  },
  {
    id: 'getSubscription',
    method: 'GET',
    path: '/api/subscription',
    auth: 'user',
    handler: 'get-subscription',
    response: sub.SubscriptionView,
    // A pending plan is read at PayPal first (the buyer may just have approved it): its first month granted, with the receipt.
    timeoutSeconds: 25,
    grants: ['table:read', 'table:write', 'secret:paypal', 'ses:send', 'secret:origin'],
  },
  {
    // Cancels at PayPal; reads the subscription back (and grants a payment PayPal made meanwhile, with its receipt).
    id: 'cancelSubscription',
    method: 'POST',
    path: '/api/subscription/cancel',
    auth: 'user',
    handler: 'cancel-subscription',
    response: sub.SubscriptionView,
    timeoutSeconds: 25,
    grants: ['table:read', 'table:write', 'secret:paypal', 'ses:send', 'secret:origin'],
  },
  {
    // PayPal's revise: answers the approval page where the buyer agrees to the new price.
    id: 'changeSubscription',
    method: 'POST',
    path: '/api/subscription/change',
    auth: 'user',
    handler: 'change-subscription',
    request: sub.ChangeSubscriptionRequest,
    response: sub.ApprovalResponse,
    timeoutSeconds: 25,
    grants: ['table:read', 'table:write', 'secret:paypal', 'secret:origin'],
  },
  {
    // PayPal sends the buyer's browser here after approving or cancelling a subscription (or a plan change): a 302 to
    // the page in `to` with `?subscription=returned`, never JSON, the same for any id; it reads and changes nothing.
    id: 'subscriptionReturn',
    method: 'GET',
    path: '/api/paypal/subscription-return',
    auth: 'none',
    handler: 'paypal-subscription-return',
    query: sub.SubscriptionReturnQuery,
    grants: ['secret:origin'],
  },
  // ---- public and the site: health, the contact form, and a share link's page and files (no sign-in) ----
  {
    id: 'health',
    method: 'GET',
    path: '/api/health',
    auth: 'none',
    handler: 'get-health',
    response: s.HealthResponse,
    grants: ['table:read', 'media:read', 'ses:read', 'secret:origin'],
    tableKeys: 'health',
  },
  {
    id: 'sendContact',
    method: 'POST',
    path: '/api/send-contact',
    auth: 'none',
    handler: 'send-contact',
    request: s.SendContactRequest,
    grants: ['table:write', 'ses:send', 'secret:origin'],
    tableKeys: 'contact',
  },
  {
    // A share link's public page: HTML with Open Graph and Twitter tags (crawlers run no script), served by CloudFront's
    // `/s/*` behaviour from the API origin. Revoked, deleted or unknown: the site's not-found page with status 404.
    id: 'sharePage',
    method: 'GET',
    path: '/s/{token}',
    auth: 'none',
    handler: 'share-page',
    params: s.ShareParams,
    grants: ['table:read', 'media:read', 'secret:origin'],
    tableKeys: 'shares',
  },
  {
    // The shared file: a 302 to a fresh presigned URL (media URLs expire; this link does not while the share lives).
    id: 'shareFile',
    method: 'GET',
    path: '/s/{token}/media',
    auth: 'none',
    handler: 'share-file',
    params: s.ShareParams,
    grants: ['table:read', 'media:read', 'secret:origin'],
    tableKeys: 'shares',
  },
  {
    id: 'sharePoster',
    method: 'GET',
    path: '/s/{token}/poster',
    auth: 'none',
    handler: 'share-poster',
    params: s.ShareParams,
    grants: ['table:read', 'media:read', 'secret:origin'],
    tableKeys: 'shares',
  },
  // ---- webhooks: the providers call these; each verifies the provider's signature (auth: 'signature') ----
  {
    id: 'replicateWebhook',
    method: 'POST',
    path: '/api/webhooks/replicate',
    auth: 'signature',
    handler: 'replicate-webhook',
    // The webhook URL we give Replicate names the job (?job=<id>, and &segment=<n> for a clip's later segments,
    // &part=<n> for a batch's images); the signature does not cover it.
    query: z.object({ job: PathId.optional(), segment: z.string().regex(/^[1-9]$/).optional(), part: z.string().regex(/^[0-9]$/).optional() }),
    timeoutSeconds: 25,
    memoryMb: 1024,
    grants: ['table:read', 'table:write', 'media:write', 'secret:replicate', 'secret:origin'],
  },
  {
    id: 'paypalWebhook',
    method: 'POST',
    path: '/api/webhooks/paypal',
    auth: 'signature',
    handler: 'paypal-webhook',
    timeoutSeconds: 25,
    grants: ['table:read', 'table:write', 'secret:paypal', 'ses:send', 'secret:origin'],
  },
] as const satisfies readonly RouteDef[];

export type RouteId = (typeof ROUTES)[number]['id'];

/** Turns `/api/media/{id}` into a matcher returning the path parameters. */
export function compilePath(path: string): (actual: string) => Record<string, string> | null {
  const names: string[] = [];
  const pattern = path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{(\w+)\\?\}/g, (_m, name: string) => {
    names.push(name);
    return '([^/]+)';
  });
  const re = new RegExp(`^${pattern.replace(/\\\{|\\\}/g, '')}$`);
  return (actual) => {
    const m = re.exec(actual);
    if (!m) return null;
    const params: Record<string, string> = {};
    names.forEach((n, i) => {
      params[n] = decodeURIComponent(m[i + 1]!);
    });
    return params;
  };
}

export type RouteOf<I extends RouteId> = Extract<(typeof ROUTES)[number], { id: I }>;

/** One route with its exact request and response types, for its handler. */
export function routeById<I extends RouteId>(id: I): RouteOf<I> {
  const route = ROUTES.find((r) => r.id === id);
  if (!route) throw new Error(`No route ${id}`);
  return route as RouteOf<I>;
}

/** Every route as plain RouteDefs, for the gateway, CDK and tests that iterate them. */
export const ALL_ROUTES: readonly RouteDef[] = ROUTES;
