/**
 * The thin-handler kit: parse the API Gateway v2 event, validate against the route's
 * contract schema, call one use case, and map the result or a typed error to HTTP.
 */
import type { APIGatewayProxyEventV2, APIGatewayProxyResultV2, Context } from 'aws-lambda';
import type { z } from 'zod';
import { ErrorCode, Messages, httpStatusOf, type ErrorBody } from '../../contract/errors';
import type { RouteDef } from '../../contract/routes';
import { AppError, InvalidInput, Unauthorized } from '../domain/errors';
import { isDependencyUnreachable } from '../domain/unreachable';
import { logger } from '../logger';
import { instrumented } from '../observability';
import { isAccountDeleted } from '../wiring/deps';
import { cameThroughCloudFront } from './origin';

/** Who is calling, from the verified Cognito ID token only (never from a header). */
export interface Identity {
  sub: string;
  email: string;
  firstName: string;
  lastName: string;
  /** The pool's username (`cognito:username`), which the admin calls name the user by. */
  username: string;
  /** When the user last typed their password (the token's `auth_time`, epoch seconds); 0 when the token has none. */
  authTime: number;
}

export interface HttpRequest<B, Q = Record<string, string>, P = Record<string, string>> {
  body: B;
  /** The body exactly as received (webhook signatures are checked over it). */
  rawBody: string;
  /** The path parameters, checked against the route's `params` schema. */
  params: P;
  /** The query string, checked against the route's `query` schema (raw strings when the route has none). */
  query: Q;
  /** The query string as received. */
  rawQuery: Record<string, string>;
  headers: Record<string, string>;
  sourceIp: string;
}

export interface HttpResult {
  status?: number;
  body?: unknown;
  headers?: Record<string, string>;
  /** A 302 to this location. */
  redirect?: string;
  /** An HTML page (the public share pages) instead of a JSON body. */
  html?: string;
}

type Event = APIGatewayProxyEventV2 & {
  requestContext: APIGatewayProxyEventV2['requestContext'] & {
    authorizer?: { jwt?: { claims?: Record<string, string | number | boolean> } };
  };
};

type BodyOf<R extends RouteDef> = R['request'] extends z.ZodType ? z.infer<R['request']> : undefined;
type QueryOf<R extends RouteDef> = R['query'] extends z.ZodType ? z.infer<R['query']> : Record<string, string>;
type ParamsOf<R extends RouteDef> = R['params'] extends z.ZodType ? z.infer<R['params']> : Record<string, string>;
type RequestOf<R extends RouteDef> = HttpRequest<BodyOf<R>, QueryOf<R>, ParamsOf<R>>;

export interface RouteOptions {
  /** The answer when the body or query string does not fit the contract (default: a 400 naming the problem). */
  onInvalidInput?: () => HttpResult;
}

export function identityOf(event: Event): Identity | undefined {
  const claims = event.requestContext.authorizer?.jwt?.claims;
  if (!claims || typeof claims.sub !== 'string' || !claims.sub) return undefined;
  return {
    sub: claims.sub,
    email: String(claims.email ?? ''),
    firstName: String(claims.given_name ?? ''),
    lastName: String(claims.family_name ?? ''),
    username: String(claims['cognito:username'] ?? claims.sub),
    authTime: Number(claims.auth_time ?? 0) || 0,
  };
}

function json(status: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResultV2 {
  return {
    statusCode: status,
    headers: { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', ...headers },
    body: JSON.stringify(body),
  };
}

export function errorResponse(err: unknown): APIGatewayProxyResultV2 {
  if (err instanceof AppError) {
    const body: ErrorBody & Record<string, unknown> = { error: err.message, code: err.code, ...(err.details ?? {}) };
    // A refusal that knows when it ends (a rate or a daily cap) says so in the header clients and proxies read too.
    const retryAfter = err.details?.retryAfterSeconds;
    return json(httpStatusOf[err.code], body, typeof retryAfter === 'number' ? { 'retry-after': String(Math.max(1, Math.ceil(retryAfter))) } : {});
  }
  if (isDependencyUnreachable(err)) {
    // Nothing was decided: the database (or another service) could not be reached. The caller may simply try again.
    logger.error('Dependency unreachable', err as Error);
    return json(503, { error: Messages.serviceUnavailable, code: ErrorCode.Unavailable }, { 'retry-after': '5' });
  }
  logger.error('Unhandled error', err as Error);
  return json(500, { error: Messages.internal, code: ErrorCode.Internal });
}

/**
 * JSON bodies here are small (a prompt, a contact message, a provider's event): bigger or deeper ones are refused
 * before they are parsed, so nothing after JSON.parse (a schema, JSON.stringify, a provider's client) meets them.
 */
export const MAX_JSON_BYTES = 1024 * 1024;
export const MAX_JSON_DEPTH = 64;

/**
 * Whether `text` nests arrays and objects deeper than `max`, in one pass without recursion (JSON.parse itself takes
 * thousands of levels). Hand-written: JSON.parse has no depth option, and this is the only check it lacks.
 */
function nestsDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c) i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** A lone UTF-16 surrogate (JSON's "\ud800"): not text, and DynamoDB, SES and the providers cannot store or send it. */
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const rejectLoneSurrogates = (key: string, value: unknown) => {
  if (LONE_SURROGATE.test(key) || (typeof value === 'string' && LONE_SURROGATE.test(value))) throw new InvalidInput(Messages.invalidUnicode);
  return value;
};

/**
 * The body as received, and its value: parsed when it is JSON (or untyped), bounded in size and depth. A route with a
 * request schema takes only JSON, whose text must be valid Unicode; other routes (webhooks) get non-JSON bodies as text.
 */
function parseBody(route: RouteDef, event: Event): { raw: string; value: unknown } {
  const raw = event.body ? (event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body) : '';
  if (!raw) return { raw, value: undefined };
  const type = (event.headers?.['content-type'] ?? '').toLowerCase();
  if (type && !type.includes('json')) {
    if (route.request) throw new AppError(ErrorCode.UnsupportedMediaType, Messages.jsonOnly);
    return { raw, value: raw };
  }
  if (Buffer.byteLength(raw) > MAX_JSON_BYTES) throw new AppError(ErrorCode.PayloadTooLarge, Messages.payloadTooLarge);
  if (nestsDeeperThan(raw, MAX_JSON_DEPTH)) throw new InvalidInput(Messages.jsonTooDeep(MAX_JSON_DEPTH));
  try {
    return { raw, value: JSON.parse(raw, route.request ? rejectLoneSurrogates : undefined) };
  } catch (err) {
    throw err instanceof InvalidInput ? err : new InvalidInput(Messages.invalidJson);
  }
}

function validate<T>(schema: z.ZodType<T> | undefined, value: unknown): T {
  if (!schema) return value as T;
  const result = schema.safeParse(value ?? {});
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  throw new InvalidInput(issue?.message ?? 'Invalid request.', { field: issue?.path.join('.') });
}

function lowerKeys(h: Record<string, string | undefined> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(h ?? {})) if (v !== undefined) out[k.toLowerCase()] = v;
  return out;
}

function toResponse(result: HttpResult): APIGatewayProxyResultV2 {
  if (result.redirect) {
    return { statusCode: 302, headers: { location: result.redirect, 'cache-control': 'no-store', ...result.headers }, body: '' };
  }
  const status = result.status ?? 200;
  if (result.html !== undefined) {
    return { statusCode: status, headers: { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...result.headers }, body: result.html };
  }
  if (result.body === undefined) return { statusCode: status, headers: { 'cache-control': 'no-store', ...result.headers }, body: '' };
  return json(status, result.body, result.headers);
}

/**
 * 403 for a request that did not come through CloudFront (origin.ts): checked first, for every route, so nothing of a
 * handler runs for it. The secret is read from Secrets Manager at run time (cached).
 */
async function notFromCloudFront(event: Event): Promise<APIGatewayProxyResultV2 | undefined> {
  if (await cameThroughCloudFront(lowerKeys(event.headers))) return undefined;
  logger.warn('Refused a request that did not come through CloudFront', { path: event.rawPath });
  return json(403, { message: 'Forbidden' });
}

async function run<R extends RouteDef>(
  route: R,
  event: Event,
  fn: (req: RequestOf<R>) => Promise<HttpResult>,
  opts: RouteOptions = {},
): Promise<APIGatewayProxyResultV2> {
  logger.appendKeys({ requestId: event.requestContext?.requestId, route: route.id });
  try {
    const refused = await notFromCloudFront(event);
    if (refused) return refused;
    let req: RequestOf<R>;
    try {
      const params = validate(route.params as z.ZodType<ParamsOf<R>> | undefined, event.pathParameters ?? {});
      const { raw, value } = parseBody(route, event);
      const rawQuery = (event.queryStringParameters ?? {}) as Record<string, string>;
      req = {
        body: validate(route.request as z.ZodType<BodyOf<R>> | undefined, value),
        rawBody: raw,
        params,
        query: validate(route.query as z.ZodType<QueryOf<R>> | undefined, rawQuery),
        rawQuery,
        headers: lowerKeys(event.headers),
        sourceIp: event.requestContext?.http?.sourceIp ?? '',
      };
    } catch (err) {
      if (err instanceof InvalidInput && opts.onInvalidInput) return toResponse(opts.onInvalidInput());
      throw err;
    }
    return toResponse(await fn(req));
  } catch (err) {
    return errorResponse(err);
  }
}

/** A public route (auth none or signature). */
export function publicRoute<R extends RouteDef>(route: R, fn: (req: RequestOf<R>) => Promise<HttpResult>, opts?: RouteOptions) {
  return instrumented(route.id, (event: Event) => run(route, event, fn, opts));
}

export interface UserRouteOptions {
  /** The 401's message when the event carries no identity. */
  unauthorizedMessage?: string;
  /**
   * Let a deleted account's token through: DELETE /api/me, so a deletion that failed half way (its tombstone written,
   * the files or the Cognito user not yet removed) is finished by a repeated request. Its steps change nothing twice.
   */
  allowDeletedAccount?: boolean;
  /**
   * Skip the tombstone read: the route answers a deleted account's token by itself, without making anything of it.
   * For the hot paths: check-status finds no job (the deletion removed them: 404), and generation makes the account
   * first, whose creating transaction checks the tombstone (401 `Messages.accountDeleted`). The read would add a
   * DynamoDB round trip to every poll (`npm run bench`: check-status p50 from 1.4x to 2.0x a GetItem).
   */
  deletedAccountAnswersItself?: boolean;
}

/**
 * A route for a signed-in user: the identity comes from the verified token's claims. The authorizer has
 * already rejected bad tokens; a missing identity here still gets a 401, with the route's own message. The
 * authorizer cannot know an account deleted while its token lives (an hour): the account's tombstone is read for every
 * call, and a deleted account's token gets 401 `Messages.accountDeleted` before the route runs, so nothing of the user
 * is made again (no account, no upload, no connection).
 */
export function userRoute<R extends RouteDef>(
  route: R,
  fn: (req: RequestOf<R>, identity: Identity, context?: Context) => Promise<HttpResult>,
  opts: UserRouteOptions = {},
) {
  return instrumented(route.id, async (event: Event, context?: Context): Promise<APIGatewayProxyResultV2> => {
    const refused = await notFromCloudFront(event);
    if (refused) return refused;
    const identity = identityOf(event);
    if (!identity) return errorResponse(new Unauthorized(opts.unauthorizedMessage));
    return run(route, event, async (req) => {
      const checkTombstone = !opts.allowDeletedAccount && !opts.deletedAccountAnswersItself;
      if (checkTombstone && (await isAccountDeleted(identity.sub))) throw new Unauthorized(Messages.accountDeleted);
      return fn(req, identity, context);
    });
  });
}
