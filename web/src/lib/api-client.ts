import { API_ROUTES, routePath, type Api, type ApiRouteId, type QueryValue } from './api-routes';
import { getConfig } from './config-state';

/**
 * The single HTTP client of the SPA: `api.<route id>(args)` for each contract route (api-routes.ts), e.g.
 * `api.listMedia({ query: { limit: 24 }, signal })`. It resolves the route's path against config.apiBaseUrl,
 * attaches the signed-in user's bearer token and turns error bodies into ApiError with the spec's message:
 * body.error, else the response text, else `HTTP error: {status}`.
 */

export type TokenProvider = () => Promise<string | undefined>;

let tokenProvider: TokenProvider = async () => undefined;

/** The auth feature plugs its session here; the client never knows about Amplify. */
export function setTokenProvider(provider: TokenProvider): void {
  tokenProvider = provider;
}

/** The signed-in user's ID token, for the push channel's handshake (features/live). */
export function currentIdToken(): Promise<string | undefined> {
  return tokenProvider();
}

let onUnauthorized: () => void = () => undefined;

/** Called when the API rejects a request's token (401), so the session can re-check itself. */
export function setUnauthorizedHandler(handler: () => void): void {
  onUnauthorized = handler;
}

export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    /** HTTP status, or 0 when the request never got a response. */
    readonly status: number,
    /** The contract's error code (e.g. NOT_ENOUGH_CREDITS) when the server sent one. */
    readonly code: string | undefined,
    message: string,
  ) {
    super(message);
  }
}

export interface RequestOptions {
  signal?: AbortSignal;
  headers?: Record<string, string>;
  /** Validates the success body, e.g. a response schema from contract/. */
  schema?: { parse(data: unknown): unknown };
}

/** Joins the base and a contract path without doubling `/api` when the base already ends with it. */
export function resolveUrl(base: string, path: string): string {
  if (/^https?:\/\//.test(path)) return path;
  let root = base.replace(/\/+$/, '');
  const rel = path.startsWith('/') ? path : `/${path}`;
  if (root.endsWith('/api') && (rel === '/api' || rel.startsWith('/api/'))) root = root.slice(0, -'/api'.length);
  return `${root}${rel}`;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function stringField(body: unknown, key: string): string | undefined {
  if (typeof body !== 'object' || body === null) return undefined;
  const value = (body as Record<string, unknown>)[key];
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** Builds the ApiError for a non-2xx response from its status and raw body text. */
export function toApiError(status: number, text: string): ApiError {
  const body = parseJson(text);
  const message =
    stringField(body, 'error') ??
    // API Gateway's own errors (authorizer, throttling) carry `message` instead.
    stringField(body, 'message') ??
    (text.trim() || `HTTP error: ${status}`);
  return new ApiError(status, stringField(body, 'code'), message);
}

async function request<T>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body: unknown, options: RequestOptions): Promise<T> {
  const headers: Record<string, string> = { accept: 'application/json', ...options.headers };
  const token = await tokenProvider();
  if (token) headers.authorization = `Bearer ${token}`;
  if (body !== undefined) headers['content-type'] = 'application/json';

  let response: Response;
  try {
    response = await fetch(resolveUrl(getConfig().apiBaseUrl, path), {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: options.signal,
    });
  } catch (err) {
    if (err instanceof DOMException && err.name === 'AbortError') throw err;
    throw new ApiError(0, 'NETWORK_ERROR', 'Network error. Check your connection and try again.');
  }

  const text = await response.text();
  if (!response.ok) {
    if (response.status === 401 && token) onUnauthorized();
    throw toApiError(response.status, text);
  }
  if (text === '') return undefined as T;
  const data = parseJson(text) ?? text;
  return (options.schema ? options.schema.parse(data) : data) as T;
}

interface CallArgs extends RequestOptions {
  params?: Readonly<Record<string, string>>;
  query?: Readonly<Record<string, QueryValue>>;
  body?: unknown;
}

/** Waits before each retry of a keyed call: a few short steps, then the click's answer is the last error. */
export const RETRY_DELAYS_MS: readonly number[] = [500, 1_000, 2_000, 4_000];
let retryDelays = RETRY_DELAYS_MS;

/** Component tests that answer 5xx on purpose retry without waiting. */
export function setRetryDelaysForTesting(delays: readonly number[] = RETRY_DELAYS_MS): void {
  retryDelays = delays;
}

/** Worth sending again with the same key: no answer, a server error or the gateway's timeout, or the first still running. */
const retriable = (err: unknown) =>
  err instanceof ApiError && (err.status === 0 || err.status >= 500 || (err.status === 409 && err.code === 'IDEMPOTENCY_IN_PROGRESS'));

function pause(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(signal.reason);
    }, { once: true });
  });
}

/**
 * A call that charges or orders: one Idempotency-Key per call (a click), and the same key on every retry, so a retry
 * after a lost answer gets the first answer instead of charging again.
 */
async function keyedRequest(method: 'POST', url: string, body: unknown, options: RequestOptions): Promise<unknown> {
  const headers = { ...options.headers, 'Idempotency-Key': crypto.randomUUID() };
  for (let attempt = 0; ; attempt++) {
    try {
      return await request(method, url, body, { ...options, headers });
    } catch (err) {
      const delay = retryDelays[attempt];
      if (delay === undefined || !retriable(err)) throw err;
      await pause(delay, options.signal);
    }
  }
}

function call(id: ApiRouteId, { params, query, body, ...options }: CallArgs = {}): Promise<unknown> {
  const route: { method: 'GET' | 'POST' | 'PUT' | 'DELETE'; path: string; idempotencyKey?: true } = API_ROUTES[id];
  let url: string;
  try {
    url = routePath(route.path, params, query);
  } catch (err) {
    return Promise.reject(err);
  }
  if (route.idempotencyKey && route.method === 'POST') return keyedRequest(route.method, url, body, options);
  return request(route.method, url, body, options);
}

// Each method's types come from its route (Api); at run time they all share call().
export const api = Object.fromEntries(
  (Object.keys(API_ROUTES) as ApiRouteId[]).map((id) => [id, (args?: CallArgs) => call(id, args)]),
) as unknown as Api;
