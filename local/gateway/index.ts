/**
 * The local API gateway: serves every route of contract/routes by invoking the real handler with an
 * API Gateway HTTP API (payload 2.0) event, and behaves like the cloud where it matters:
 * - `user` routes need a valid Cognito ID token, checked like the JWT authorizer (401 {"message":"Unauthorized"});
 * - request payloads over 6 MB get 413, unmatched routes 404;
 * - a function still running at its own timeout (the route's, CDK's 10 s when it has none) gets 500
 *   {"message":"Internal Server Error"}, as API Gateway answers a function Lambda ended with "Task timed out"; an
 *   integration over 29 s gets 503 (only a route whose own timeout is the largest allowed, 29 s, can reach it);
 * - a path that is not valid percent-encoded UTF-8 gets 400 before any route is matched: API Gateway decodes the
 *   path (and each path parameter) before it calls a function, so a function never sees such a path;
 * - with `throttle`, each route's token bucket (./throttle.ts): 429 {"message":"Too Many Requests"} before anything runs;
 * - with `concurrency`, each function's concurrency as Lambda counts it (./concurrency.ts): an invocation past it is
 *   refused before the function runs, 500 {"message":"Internal Server Error"} as API Gateway answers a throttled Lambda.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { randomUUID } from 'node:crypto';
import type { Duplex } from 'node:stream';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { CognitoJwtVerifier } from 'aws-jwt-verify';
import { compilePath, type RouteDef } from '../../contract/routes';
import { readBody, sendJson, TOO_LARGE } from '../shared/http';
import { functionConcurrency } from './concurrency';
import { routeThrottle } from './throttle';

export const MAX_PAYLOAD_BYTES = 6 * 1024 * 1024;
export const INTEGRATION_TIMEOUT_MS = 29_000;

/** The part of Lambda's context the handlers read: the time left (Powertools Idempotency bounds its in-progress lock by it). */
interface InvocationContext {
  getRemainingTimeInMillis(): number;
}
type LambdaHandler = (event: APIGatewayProxyEventV2, context: InvocationContext) => Promise<APIGatewayProxyStructuredResultV2 | string | object>;

/** The function's own deadline, as Lambda counts it from the route's timeout (CDK's default, 10 s, when it has none). */
function invocationContext(route: RouteDef): InvocationContext {
  const deadline = Date.now() + (route.timeoutSeconds ?? 10) * 1000;
  return { getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()) };
}

export interface GatewayOptions {
  routes: readonly RouteDef[];
  loadHandler: (route: RouteDef) => Promise<LambdaHandler>;
  userPoolId: string;
  clientId: string;
  jwksUrl: string;
  log?: (line: string) => void;
  /** Overrides the 29 s integration timeout (tests). */
  timeoutMs?: number;
  /** Apply API Gateway's per-route throttles (contract/throttles.ts); off when false. */
  throttle?: boolean;
  /** The account's Lambda concurrency (./concurrency.ts); unlimited when undefined. */
  concurrency?: number;
}

const TEXT_TYPES = /^(application\/(json|x-www-form-urlencoded|xml|javascript)|text\/)/i;

export function createGateway(o: GatewayOptions) {
  const table = o.routes.map((route) => ({ route, match: compilePath(route.path) }));
  const throttle = o.throttle ? routeThrottle(o.routes) : undefined;
  const lambdas = o.concurrency === undefined ? undefined : functionConcurrency(o.routes, o.concurrency);
  const verifier = CognitoJwtVerifier.create({ userPoolId: o.userPoolId, clientId: o.clientId, tokenUse: 'id' });
  let jwksLoaded: Promise<void> | undefined;
  const loadJwks = () =>
    (jwksLoaded ??= fetch(o.jwksUrl)
      .then((r) => r.json())
      .then((jwks) => verifier.cacheJwks(jwks as never))
      .catch((err) => {
        jwksLoaded = undefined;
        throw err;
      }));
  const handlers = new Map<string, Promise<LambdaHandler>>();
  const handlerFor = (route: RouteDef) => {
    let h = handlers.get(route.id);
    if (!h) handlers.set(route.id, (h = o.loadHandler(route)));
    return h;
  };

  async function claimsOf(req: IncomingMessage): Promise<Record<string, string> | null> {
    const header = req.headers.authorization ?? '';
    const m = /^Bearer\s+(.+)$/i.exec(header);
    if (!m) return null;
    await loadJwks();
    try {
      const payload = await verifier.verify(m[1]!);
      // API Gateway hands claims to the function as strings.
      return Object.fromEntries(Object.entries(payload).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    } catch {
      return null;
    }
  }

  /** Invocations whose function has not returned yet (the gateway may have stopped waiting at 29 s). */
  let running = 0;

  /** Handles the request if it is for /api; returns false to let the next middleware serve it. */
  async function gateway(req: IncomingMessage, res: ServerResponse): Promise<boolean> {
    const url = parseTarget(req.url);
    if (url === undefined) {
      if (!isApiPath(req.url ?? '')) return false;
      sendJson(res, 400, { message: 'Bad Request' });
      return true;
    }
    if (!isApiPath(url.pathname)) return false;
    if (!decodes(url.pathname)) {
      sendJson(res, 400, { message: 'Bad Request' });
      return true;
    }
    const method = (req.method ?? 'GET').toUpperCase();
    let found: { route: RouteDef; params: Record<string, string> } | undefined;
    for (const { route, match } of table) {
      const params = route.method === method ? match(url.pathname) : null;
      if (params) {
        found = { route, params };
        break;
      }
    }
    if (!found) {
      sendJson(res, 404, { message: 'Not Found' });
      return true;
    }
    const { route, params } = found;
    // Throttled before the authorizer and the function, as API Gateway does: nothing runs, nothing is charged.
    if (throttle && !throttle.admit(route)) {
      sendJson(res, 429, { message: 'Too Many Requests' });
      return true;
    }
    const started = Date.now();
    try {
      const body = await readBody(req, MAX_PAYLOAD_BYTES);
      if (body === TOO_LARGE) {
        sendJson(res, 413, { message: 'Request Entity Too Large' });
        return true;
      }
      let claims: Record<string, string> | undefined;
      if (route.auth === 'user') {
        const c = await claimsOf(req);
        if (!c) {
          sendJson(res, 401, { message: 'Unauthorized' });
          return true;
        }
        claims = c;
      }
      const event = toEvent(req, url, route, params, body, claims);
      const handler = await handlerFor(route);
      const release = lambdas ? lambdas.start(route) : () => undefined;
      if (!release) {
        o.log?.(`[gateway] ${method} ${url.pathname} 500: ${route.id} is at its concurrency (throttled, not run)`);
        sendJson(res, 500, { message: 'Internal Server Error' });
        return true;
      }
      // The execution is busy until the function itself returns, even when the gateway stopped waiting at 29 s.
      running++;
      const invocation = Promise.resolve()
        .then(() => handler(event, invocationContext(route)))
        .finally(() => {
          running--;
          release();
        });
      // Lambda ends a function at its timeout; API Gateway stops waiting at 29 s. Whichever comes first answers. (An
      // in-process handler cannot be stopped: it finishes in the background, as the execution stays busy above.)
      const functionMs = (route.timeoutSeconds ?? 10) * 1000;
      const integrationMs = o.timeoutMs ?? INTEGRATION_TIMEOUT_MS;
      let timer: NodeJS.Timeout | undefined;
      const result = await Promise.race([
        invocation,
        new Promise<'function timeout' | 'integration timeout'>((resolve) => {
          timer = setTimeout(() => resolve(functionMs < integrationMs ? 'function timeout' : 'integration timeout'), Math.min(functionMs, integrationMs));
        }),
      ]).finally(() => clearTimeout(timer));
      if (result === 'function timeout') {
        o.log?.(`[gateway] ${method} ${url.pathname} 500: ${route.id} timed out after ${functionMs / 1000} s (Lambda ends it)`);
        sendJson(res, 500, { message: 'Internal Server Error' });
      } else if (result === 'integration timeout') {
        sendJson(res, 503, { message: 'Service Unavailable' });
      } else {
        writeResult(res, result);
      }
    } catch (err) {
      o.log?.(`[gateway] ${method} ${url.pathname} failed: ${(err as Error).stack ?? String(err)}`);
      if (!res.headersSent) sendJson(res, 500, { message: 'Internal Server Error' });
    }
    o.log?.(`[gateway] ${method} ${url.pathname} ${res.statusCode} ${Date.now() - started}ms`);
    return true;
  }
  return Object.assign(gateway, { running: () => running });
}

/** The API's paths: /api/* and the public share pages /s/* (CloudFront sends both to the API origin). */
const isApiPath = (path: string) => path === '/api' || path.startsWith('/api/') || path.startsWith('/api?') || path.startsWith('/s/');

/** The request target as a URL, or undefined when it is not one (e.g. an absolute URL with a bad port). */
function parseTarget(target: string | undefined): URL | undefined {
  try {
    return new URL(target ?? '/', 'http://local');
  } catch {
    return undefined;
  }
}

/** Whether a path is valid percent-encoded UTF-8 (decodeURIComponent throws on `%`, `%ZZ`, `%C3`, `%ED%A0%80`...). */
function decodes(path: string): boolean {
  try {
    decodeURIComponent(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * For the server's 'clientError' event: a request Node cannot parse (headers over its 16 kB limit, bad characters)
 * gets a JSON answer with a message, as the gateway's other refusals do, instead of a bare status line.
 */
export function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const [status, message] = err.code === 'HPE_HEADER_OVERFLOW' ? [431, 'Request Header Fields Too Large'] : [400, 'Bad Request'];
  const body = JSON.stringify({ message });
  socket.end(
    `HTTP/1.1 ${status} ${message}\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`,
  );
  // Drop what the client still sends (its body): closing with unread data would reset the connection before the
  // client reads the answer.
  socket.on('data', () => undefined);
  socket.on('end', () => socket.destroy());
  setTimeout(() => socket.destroy(), 1_000).unref();
}

function toEvent(
  req: IncomingMessage,
  url: URL,
  route: RouteDef,
  params: Record<string, string>,
  body: Buffer,
  claims: Record<string, string> | undefined,
): APIGatewayProxyEventV2 {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(req.headers)) {
    if (v === undefined || k === 'cookie') continue;
    headers[k.toLowerCase()] = Array.isArray(v) ? v.join(',') : v;
  }
  const query: Record<string, string> = {};
  for (const [k, v] of url.searchParams) query[k] = query[k] === undefined ? v : `${query[k]},${v}`;
  const isText = TEXT_TYPES.test(headers['content-type'] ?? 'application/json');
  const now = new Date();
  const routeKey = `${route.method} ${route.path}`;
  const sourceIp = (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
  const event = {
    version: '2.0',
    routeKey,
    rawPath: url.pathname,
    rawQueryString: url.search.replace(/^\?/, ''),
    cookies: req.headers.cookie ? req.headers.cookie.split(/;\s*/) : undefined,
    headers,
    queryStringParameters: Object.keys(query).length ? query : undefined,
    pathParameters: Object.keys(params).length ? params : undefined,
    requestContext: {
      accountId: '000000000000',
      apiId: 'local',
      domainName: headers.host ?? 'localhost',
      domainPrefix: 'localhost',
      http: { method: route.method, path: url.pathname, protocol: 'HTTP/1.1', sourceIp, userAgent: headers['user-agent'] ?? '' },
      requestId: randomUUID(),
      routeKey,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
      ...(claims ? { authorizer: { jwt: { claims, scopes: null } } } : {}),
    },
    body: body.length ? (isText ? body.toString('utf8') : body.toString('base64')) : undefined,
    isBase64Encoded: body.length > 0 && !isText,
  };
  return event as unknown as APIGatewayProxyEventV2;
}

/** Maps a Lambda result to HTTP as API Gateway does (payload format 2.0). */
function writeResult(res: ServerResponse, result: APIGatewayProxyStructuredResultV2 | string | object): void {
  if (typeof result === 'string' || !('statusCode' in result)) {
    sendJson(res, 200, result);
    return;
  }
  const r = result as APIGatewayProxyStructuredResultV2;
  const body = r.body ? Buffer.from(r.body, r.isBase64Encoded ? 'base64' : 'utf8') : Buffer.alloc(0);
  if (body.length > MAX_PAYLOAD_BYTES) {
    sendJson(res, 502, { message: 'Internal Server Error' });
    return;
  }
  const headers: Record<string, string | string[]> = {};
  for (const [k, v] of Object.entries(r.headers ?? {})) headers[k] = String(v);
  if (r.cookies?.length) headers['set-cookie'] = r.cookies;
  headers['content-length'] = String(body.length);
  res.writeHead(r.statusCode ?? 200, headers);
  res.end(body);
}
