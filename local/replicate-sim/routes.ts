/**
 * The route table (Replicate's paths; the `/v1` prefix of the API is optional):
 *   POST /v1/predictions, POST /v1/models/{owner}/{name}/predictions, GET /v1/predictions,
 *   GET /v1/predictions/{id}, POST /v1/predictions/{id}/cancel, GET /v1/models/{owner}/{name} and its
 *   /versions/{id}, GET /v1/account, GET /v1/webhooks/default/secret (Bearer or Token auth),
 *   GET|HEAD /files/{predictionId}/{name} (no auth, byte ranges), GET / (a status line).
 * The API's calls are held to Replicate's rate limits (rate-limits.ts); the output files are not.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJson } from '../shared/http';
import { routeTable } from '../shared/route-table';
import { promptOf, type Api } from './api';
import { createRateLimiter, kindOf, type RateLimits } from './rate-limits';
import type { SimCall } from './types';
import { HttpError, notFound, problem } from './validation';

/** What a route's handler gets: the request, its URL and its path parameters. */
interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  url: URL;
  params: Record<string, string>;
}

type Handler = (c: Call) => void | Promise<void>;

/** Served to anyone, as replicate.delivery serves outputs. */
function openRoutes(api: Api) {
  const file: Handler = (c) => api.serveFile(c.req, c.res, c.params.id!, c.params.name!);
  return routeTable<Handler>([
    { method: 'GET', path: '/files/{id}/{name}', handle: file },
    { method: 'HEAD', path: '/files/{id}/{name}', handle: file },
    // Not Replicate's: how many times a prediction's outputs were downloaded.
    { method: 'GET', path: '/_sim/downloads/{id}', handle: (c) => api.downloadCount(c.res, c.params.id!) },
    { method: 'GET', path: '/', handle: (c) => api.status(c.res) },
  ]);
}

/** Replicate's API, behind the API token; paths without their `/v1`. */
function apiRoutes(api: Api) {
  return routeTable<Handler>([
    { method: 'POST', path: '/predictions', handle: (c) => api.createForVersion(c.req, c.res) },
    { method: 'POST', path: '/models/{owner}/{name}/predictions', handle: (c) => api.createForModel(c.req, c.res, c.params.owner!, c.params.name!) },
    { method: 'GET', path: '/predictions', handle: (c) => api.list(c.res, c.url) },
    { method: 'GET', path: '/predictions/{id}', handle: (c) => api.get(c.res, c.params.id!) },
    { method: 'POST', path: '/predictions/{id}/cancel', handle: (c) => api.cancel(c.res, c.params.id!) },
    { method: 'GET', path: '/models/{owner}/{name}', handle: (c) => api.model(c.res, c.params.owner!, c.params.name!) },
    { method: 'GET', path: '/models/{owner}/{name}/versions/{version}', handle: (c) => api.model(c.res, c.params.owner!, c.params.name!, c.params.version!) },
    { method: 'GET', path: '/account', handle: (c) => api.account(c.res) },
    { method: 'GET', path: '/webhooks/default/secret', handle: (c) => api.webhookSecret(c.res) },
  ]);
}

/** The request listener: answers errors as Replicate does (problem+json); every unknown path or method is a 404. */
export function createRouter(api: Api, apiToken: string, limits?: RateLimits, onCall?: (call: SimCall) => void) {
  const open = openRoutes(api);
  const guarded = apiRoutes(api);
  const limiter = createRateLimiter(limits);

  function authorized(req: IncomingMessage): boolean {
    const m = /^(?:Bearer|Token)\s+(.+)$/i.exec(req.headers.authorization ?? '');
    return !!m && m[1]!.trim() === apiToken;
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sim');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    const unguarded = open(method, path);
    if (typeof unguarded === 'object') return unguarded.handle({ req, res, url, params: unguarded.params });
    if (!authorized(req)) throw problem(401, 'Unauthenticated', 'You did not pass a valid authentication token');
    const apiPath = path.replace(/^\/v1(?=\/|$)/, '');
    const kind = kindOf(method, apiPath);
    if (onCall) {
      const at = Date.now();
      res.once('finish', () => {
        const prompt = promptOf(req);
        onCall({ at, method, path: apiPath, kind, status: res.statusCode, ...(prompt !== undefined ? { prompt } : {}) });
      });
    }
    // Every authenticated call counts, found or not, as it does at Replicate.
    limiter.take(kind);
    const found = guarded(method, apiPath);
    if (typeof found !== 'object') throw notFound();
    return found.handle({ req, res, url, params: found.params });
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    route(req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.destroy();
      if (err instanceof HttpError) return sendJson(res, err.status, err.body, err.headers);
      sendJson(res, 500, { title: 'Internal server error', detail: (err as Error).message, status: 500 });
    });
  };
}
