/**
 * The contract's routes as the SPA calls them: each route's method and path, and the types of its path
 * parameters, query string, body and answer, all taken from contract/routes.ts.
 *
 * Only types come from contract/ (`import type`): its route table holds the zod schemas, which the light
 * marketing pages must not download. The method and path are therefore spelled again here, and the compiler
 * checks each one against the contract's (test/web/api-client.test.ts compares the two tables as well).
 */
import type { z } from 'zod';
import type { RouteId, RouteOf } from '../../../contract/routes';
import type { RequestOptions } from './api-client';

/**
 * Every route the SPA calls. The webhooks and PayPal's browser redirects are not called with fetch. `idempotencyKey`:
 * the route takes an Idempotency-Key (contract/idempotency.ts), so the client sends one per call and retries with it.
 */
export const API_ROUTES = {
  health: { method: 'GET', path: '/api/health' },
  me: { method: 'GET', path: '/api/me' },
  createUpload: { method: 'POST', path: '/api/uploads' },
  generateImage: { method: 'POST', path: '/api/generate-image', idempotencyKey: true },
  checkStatus: { method: 'GET', path: '/api/check-status/{predictionId}' },
  listMedia: { method: 'GET', path: '/api/media' },
  deleteMedia: { method: 'DELETE', path: '/api/media/{id}' },
  favoriteMedia: { method: 'PUT', path: '/api/media/{id}/favorite' },
  unfavoriteMedia: { method: 'DELETE', path: '/api/media/{id}/favorite' },
  shareMedia: { method: 'POST', path: '/api/media/{id}/share' },
  unshareMedia: { method: 'DELETE', path: '/api/media/{id}/share' },
  listCollections: { method: 'GET', path: '/api/collections' },
  createCollection: { method: 'POST', path: '/api/collections' },
  renameCollection: { method: 'PUT', path: '/api/collections/{id}' },
  deleteCollection: { method: 'DELETE', path: '/api/collections/{id}' },
  addToCollection: { method: 'PUT', path: '/api/collections/{id}/items/{mediaId}' },
  removeFromCollection: { method: 'DELETE', path: '/api/collections/{id}/items/{mediaId}' },
  deleteAccount: { method: 'DELETE', path: '/api/me' },
  sendContact: { method: 'POST', path: '/api/send-contact' },
  generateVideo: { method: 'POST', path: '/api/generate-video', idempotencyKey: true },
  generations: { method: 'POST', path: '/api/generations', idempotencyKey: true },
  models: { method: 'GET', path: '/api/models' },
  cancelJob: { method: 'POST', path: '/api/jobs/{id}/cancel' },
  getMedia: { method: 'GET', path: '/api/media/{id}' },
  createPaypalPayment: { method: 'POST', path: '/api/create-paypal-payment', idempotencyKey: true },
  listPayments: { method: 'GET', path: '/api/payments' },
  paymentOutcome: { method: 'GET', path: '/api/payment-outcome' },
  plans: { method: 'GET', path: '/api/plans' },
  createSubscription: { method: 'POST', path: '/api/subscriptions' },
  getSubscription: { method: 'GET', path: '/api/subscription' },
  cancelSubscription: { method: 'POST', path: '/api/subscription/cancel' },
  changeSubscription: { method: 'POST', path: '/api/subscription/change' },
} as const satisfies { [I in RouteId]?: Pick<RouteOf<I>, 'method' | 'path'> & { idempotencyKey?: true } };

export type ApiRouteId = keyof typeof API_ROUTES;

/** `/api/media/{id}` -> 'id'. */
type ParamName<P extends string> = P extends `${string}{${infer Name}}${infer Rest}` ? Name | ParamName<Rest> : never;

export type ApiParams<I extends ApiRouteId> = Record<ParamName<RouteOf<I>['path']>, string>;

/** What the route's request schema accepts. */
export type ApiBody<I extends ApiRouteId> = RouteOf<I> extends { request: infer S extends z.ZodType } ? z.input<S> : never;

/**
 * The route's query string as values, not strings: the keys the query schema accepts, optional where it has a
 * default, each typed as the schema reads it (`limit?: number`).
 */
export type ApiQuery<I extends ApiRouteId> =
  RouteOf<I> extends { query: infer S extends z.ZodType }
    ? { [K in keyof z.input<S>]: K extends keyof z.output<S> ? z.output<S>[K] : never }
    : never;

/**
 * Answers of routes without a response schema in contract/routes.ts: deleteMedia, unshareMedia and deleteAccount
 * answer 204 with no body;
 * sendContact answers `{ ok: true, id }`, for which contract/ exports no type (the SPA reads nothing from it).
 */
interface UnschemaedResponses {
  deleteMedia: void;
  unshareMedia: void;
  deleteAccount: void;
  sendContact: unknown;
}

export type ApiResponse<I extends ApiRouteId> =
  RouteOf<I> extends { response: infer S extends z.ZodType } ? z.output<S> : I extends keyof UnschemaedResponses ? UnschemaedResponses[I] : unknown;

/** One call's arguments: `params`, `query` and `body` where the route has them, and the request options. */
export type ApiArgs<I extends ApiRouteId> = RequestOptions &
  ([ParamName<RouteOf<I>['path']>] extends [never] ? { params?: never } : { params: ApiParams<I> }) &
  (RouteOf<I> extends { query: z.ZodType } ? ({} extends ApiQuery<I> ? { query?: ApiQuery<I> } : { query: ApiQuery<I> }) : { query?: never }) &
  (RouteOf<I> extends { request: z.ZodType } ? { body: ApiBody<I> } : { body?: never });

export type ApiCall<I extends ApiRouteId> = {} extends ApiArgs<I>
  ? (args?: ApiArgs<I>) => Promise<ApiResponse<I>>
  : (args: ApiArgs<I>) => Promise<ApiResponse<I>>;

/** The typed client: one method a route, e.g. `api.checkStatus({ params: { predictionId } })`. */
export type Api = { [I in ApiRouteId]: ApiCall<I> };

export type QueryValue = string | number | boolean | undefined;

/**
 * The path to request: `{name}` segments filled (URL-encoded) from `params`, then the query string in the order
 * given, leaving out undefined and empty values.
 */
export function routePath(path: string, params: Readonly<Record<string, string>> = {}, query: Readonly<Record<string, QueryValue>> = {}): string {
  const filled = path.replace(/\{(\w+)\}/g, (_match, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter '${name}' for ${path}`);
    return encodeURIComponent(value);
  });
  const search = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) if (value !== undefined && value !== '') search.set(key, String(value));
  const qs = search.toString();
  return qs ? `${filled}?${qs}` : filled;
}
