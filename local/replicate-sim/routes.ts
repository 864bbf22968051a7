/**
 * The simulator's HTTP API (Replicate's shapes; the `/v1` prefix is optional):
 *   POST /v1/predictions, POST /v1/models/{owner}/{name}/predictions, GET /v1/predictions,
 *   GET /v1/predictions/{id}, POST /v1/predictions/{id}/cancel, GET /v1/models/{owner}/{name} and its
 *   /versions/{id}, GET /v1/account, GET /v1/webhooks/default/secret (Bearer or Token auth),
 *   GET|HEAD /files/{predictionId}/{name} (no auth, byte ranges), GET / (a status line).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { byteRange } from '../shared/byte-range';
import { readBody, sendJson, TOO_LARGE } from '../shared/http';
import { SIM_MODELS, type SimModel } from './models';
import type { Store } from './state';
import { BUSY_MARKER, type Rec } from './types';
import { HttpError, modelOfVersion, notFound, officialModelOf, parseCreate, parseJsonObject, problem } from './validation';

const MAX_BODY = 32 * 1024 * 1024;
const LIST_PAGE = 100;

/** Replicate's answer when throttling creates: 429 with Retry-After. */
const busy = () => problem(429, 'Request was throttled', 'Request was throttled. Expected available in 1 second.', {}, { 'retry-after': '1' });

/** How long a stalled download ([stall]) is held open at most, if its client never gives up (closing the simulator ends it too). */
const STALL_HOLD_MS = 10 * 60_000;

/** [stall]: the first 1 KB of the body, then silence on an open connection, as a stuck CDN node does. */
function stall(res: ServerResponse, body: Buffer): void {
  res.write(body.subarray(0, 1024));
  setTimeout(() => res.destroy(), STALL_HOLD_MS).unref();
}

/**
 * A `Cancel-After` header's deadline in ms: a duration with s, m or h units (bare numbers are seconds), e.g. "90s" or
 * "1h30m", at least 5 seconds, counted from the prediction's creation. Anything else is refused, nothing created.
 */
export function cancelAfterMs(header: string | string[] | undefined): number | undefined {
  if (header === undefined) return undefined;
  const text = String(header).trim();
  const parts = /^(?:\d+(?:\.\d+)?[hms]?)+$/.test(text) ? [...text.matchAll(/(\d+(?:\.\d+)?)([hms]?)/g)] : [];
  const ms = parts.reduce((sum, [, n, unit]) => sum + Number(n) * ({ h: 3_600_000, m: 60_000, s: 1000, '': 1000 } as const)[unit as 'h' | 'm' | 's' | '']!, 0);
  if (!parts.length || ms < 5000) {
    throw problem(400, 'Invalid Cancel-After header', `Cancel-After must be a duration of at least 5 seconds, such as 30s, 5m or 1h30m (given: ${text}).`);
  }
  return ms;
}

/** A model as GET /v1/models/{owner}/{name} answers it; an official model's versions are not listed (they report "hidden"). */
function modelBody(m: SimModel) {
  const [owner, name] = m.id.split('/') as [string, string];
  return {
    url: `https://replicate.com/${m.id}`,
    owner,
    name,
    description: null,
    visibility: 'public',
    github_url: null,
    paper_url: null,
    license_url: null,
    run_count: 0,
    cover_image_url: null,
    default_example: null,
    latest_version: m.official ? null : versionBody(m),
  };
}

function versionBody(m: SimModel) {
  return {
    id: m.version,
    created_at: '2024-01-01T00:00:00.000Z',
    cog_version: '0.9.4',
    openapi_schema: { openapi: '3.0.2', info: { title: 'Cog', version: '0.1.0' }, components: { schemas: { Input: m.published } } },
  };
}

/** The request listener: routes a request, answering errors as Replicate does (problem+json). */
export function createRouter(store: Store, apiToken: string, webhookSecret: string) {
  const downloads = new Map<string, number>();
  function serveFile(req: IncomingMessage, res: ServerResponse, id: string, name: string): void {
    const rec = store.find(id);
    const file = rec?.files.get(name);
    if (!rec || !file) {
      res.writeHead(404, { 'content-type': 'text/plain', 'access-control-allow-origin': '*' });
      res.end('Not found');
      return;
    }
    const total = file.data.length;
    const headers: Record<string, string | number> = {
      'content-type': file.type,
      'accept-ranges': 'bytes',
      'cache-control': 'public, max-age=3600',
      'access-control-allow-origin': '*',
    };
    const range = byteRange(req.headers.range, total);
    if (range === 'unsatisfiable') {
      res.writeHead(416, { 'content-range': `bytes */${total}` });
      res.end();
      return;
    }
    let status = 200;
    let body = file.data;
    if (range) {
      status = 206;
      body = file.data.subarray(range.start, range.end + 1);
      headers['content-range'] = `bytes ${range.start}-${range.end}/${total}`;
    }
    headers['content-length'] = body.length;
    if (req.method === 'GET') downloads.set(id, (downloads.get(id) ?? 0) + 1);
    res.writeHead(status, headers);
    if (req.method === 'GET' && rec.markers.has('stall')) return stall(res, body);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  function authorized(req: IncomingMessage): boolean {
    const m = /^(?:Bearer|Token)\s+(.+)$/i.exec(req.headers.authorization ?? '');
    return !!m && m[1]!.trim() === apiToken;
  }

  async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
    const raw = await readBody(req, MAX_BODY);
    if (raw === TOO_LARGE) throw problem(413, 'Payload too large', 'The request body is too large.');
    return parseJsonObject(raw);
  }

  /**
   * 201 with the new prediction; with `Prefer: wait[=n]`, once it is terminal or n seconds (max 60) have passed.
   * Faults on demand: `[hang]` answers after hangMs, `[early]` after the prediction ended and its webhooks were
   * delivered, `[down]` answers 500 (the prediction was created and runs all the same).
   */
  async function created(req: IncomingMessage, res: ServerResponse, rec: Rec): Promise<void> {
    const prefer = /(?:^|[,;\s])wait(?:=(\d+))?/i.exec(String(req.headers.prefer ?? ''));
    if (prefer) await store.waitFor(rec, Math.min(60, Math.max(1, prefer[1] ? Number(prefer[1]) : 60)));
    if (rec.markers.has('hang')) await holdFor(res, store.hangMs());
    if (rec.markers.has('early')) {
      await store.waitFor(rec, 600);
      await rec.deliveries;
    }
    if (res.destroyed) return;
    if (rec.markers.has('down')) throw problem(500, 'Internal server error', 'An unexpected error occurred.');
    sendJson(res, 201, rec.p, { location: rec.p.urls.get });
  }

  function withDeadline(rec: Rec, ms: number | undefined): Rec {
    if (ms !== undefined) store.deadline(rec, ms);
    return rec;
  }

  /** Waits ms, or until the caller hangs up (a client timeout) or the simulator closes. */
  function holdFor(res: ServerResponse, ms: number): Promise<void> {
    return new Promise((resolve) => {
      const t = setTimeout(resolve, ms);
      res.once('close', () => {
        clearTimeout(t);
        resolve();
      });
    });
  }

  function rateLimited(body: Record<string, unknown>): boolean {
    const prompt = (body.input as { prompt?: unknown } | undefined)?.prompt;
    return typeof prompt === 'string' && prompt.toLowerCase().includes(BUSY_MARKER);
  }

  /** Replicate's list: newest first, 100 a page, `next` the full URL of the next page. */
  function listPage(url: URL) {
    const all = store.all().map((r) => r.p).reverse();
    const offset = Math.max(0, Number.parseInt(url.searchParams.get('cursor') ?? '0', 10) || 0);
    const results = all.slice(offset, offset + LIST_PAGE);
    const next = offset + LIST_PAGE < all.length ? `${store.apiBase()}/v1/predictions?cursor=${offset + LIST_PAGE}` : null;
    const previous = offset > 0 ? `${store.apiBase()}/v1/predictions?cursor=${Math.max(0, offset - LIST_PAGE)}` : null;
    return { next, previous, results };
  }

  async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sim');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';

    const file = /^\/files\/([a-z0-9]+)\/([A-Za-z0-9._-]+)$/.exec(path);
    if (file && (method === 'GET' || method === 'HEAD')) return serveFile(req, res, file[1]!, file[2]!);
    // Not Replicate's: how many times a prediction's outputs were downloaded (tests prove a copy happens once).
    const stats = /^\/_sim\/downloads\/([a-z0-9]+)$/.exec(path);
    if (stats && method === 'GET') return sendJson(res, 200, { downloads: downloads.get(stats[1]!) ?? 0 });
    if (path === '/' && method === 'GET') return sendJson(res, 200, { simulator: 'replicate', predictions: store.all().length });

    const api = path.replace(/^\/v1(?=\/|$)/, '');
    if (!authorized(req)) {
      throw problem(401, 'Unauthenticated', 'You did not pass a valid authentication token');
    }
    let m: RegExpExecArray | null;
    if (api === '/predictions' && method === 'POST') {
      const body = await jsonBody(req);
      if (rateLimited(body)) throw busy();
      const model = modelOfVersion(body.version);
      const deadline = cancelAfterMs(req.headers['cancel-after']);
      return created(req, res, withDeadline(store.create(model, parseCreate(model, body), model.version), deadline));
    }
    if ((m = /^\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(api)) && method === 'POST') {
      const model = officialModelOf(`${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}`);
      const body = await jsonBody(req);
      if (rateLimited(body)) throw busy();
      const deadline = cancelAfterMs(req.headers['cancel-after']);
      return created(req, res, withDeadline(store.create(model, parseCreate(model, body), model.version), deadline));
    }
    if ((m = /^\/models\/([^/]+)\/([^/]+)(?:\/versions\/([^/]+))?$/.exec(api)) && method === 'GET') {
      const model = SIM_MODELS.find((x) => x.id === `${decodeURIComponent(m![1]!)}/${decodeURIComponent(m![2]!)}`);
      if (!model) throw notFound();
      if (!m[3]) return sendJson(res, 200, modelBody(model));
      if (model.official || m[3] !== model.version) throw notFound();
      return sendJson(res, 200, versionBody(model));
    }
    if (api === '/account' && method === 'GET') return sendJson(res, 200, { type: 'user', username: 'framewright-local', name: 'Framewright (local)', github_url: null });
    // The secret webhooks are signed with (the deploy guide has operators fetch it from here).
    if (api === '/webhooks/default/secret' && method === 'GET') return sendJson(res, 200, { key: webhookSecret });
    if (api === '/predictions' && method === 'GET') return sendJson(res, 200, listPage(url));
    if ((m = /^\/predictions\/([a-z0-9]+)$/.exec(api)) && method === 'GET') {
      const rec = store.find(m[1]!);
      if (!rec) throw notFound();
      return sendJson(res, 200, rec.p);
    }
    if ((m = /^\/predictions\/([a-z0-9]+)\/cancel$/.exec(api)) && method === 'POST') {
      const rec = store.get(m[1]!);
      if (!rec) throw notFound();
      store.cancel(rec);
      return sendJson(res, 200, rec.p);
    }
    throw notFound();
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    route(req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.destroy();
      if (err instanceof HttpError) return sendJson(res, err.status, err.body, err.headers);
      sendJson(res, 500, { title: 'Internal server error', detail: (err as Error).message, status: 500 });
    });
  };
}
