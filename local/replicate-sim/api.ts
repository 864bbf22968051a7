/**
 * The endpoints (Replicate's shapes, problem+json errors): create a prediction (for a version, or an official
 * model), list, get and cancel predictions, the output files (no auth, byte ranges, as replicate.delivery serves
 * them), and the simulator's own download counter. routes.ts maps paths to them.
 */
import { createHash } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { byteRange } from '../shared/byte-range';
import { readBody, sendJson, TOO_LARGE } from '../shared/http';
import { SIM_MODELS, type SimModel } from './models';
import type { State } from './state';
import { BUSY_MARKER, BUSY_BRIEFLY_MARKER, type Rec } from './types';
import { modelOfVersion, notFound, officialModelOf, parseCreate, parseJsonObject, problem } from './validation';

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

/** When each `[busy-briefly]` prompt's first create call came (epoch ms). */
const busySince = new Map<string, number>();

function rateLimited(body: Record<string, unknown>): boolean {
  const prompt = (body.input as { prompt?: unknown } | undefined)?.prompt;
  if (typeof prompt !== 'string') return false;
  const lower = prompt.toLowerCase();
  if (lower.includes(BUSY_BRIEFLY_MARKER)) {
    const since = busySince.get(prompt) ?? Date.now();
    busySince.set(prompt, since);
    return Date.now() - since < (Number(process.env.SIM_BUSY_MS) || 5_000);
  }
  return lower.includes(BUSY_MARKER);
}

/** Each create call's prompt, once its body was read (the simulator's call log names it). */
const prompts = new WeakMap<IncomingMessage, string>();
export const promptOf = (req: IncomingMessage): string | undefined => prompts.get(req);

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown>> {
  const raw = await readBody(req, MAX_BODY);
  if (raw === TOO_LARGE) throw problem(413, 'Payload too large', 'The request body is too large.');
  const body = parseJsonObject(raw);
  const prompt = (body.input as { prompt?: unknown } | undefined)?.prompt;
  if (typeof prompt === 'string') prompts.set(req, prompt);
  return body;
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

/**
 * A model as GET /v1/models/{owner}/{name} answers it, with its `latest_version` and that version's OpenAPI schema
 * (Replicate's guidance reads a model's input from `latest_version.openapi_schema`): an official model too, whose
 * predictions report the version "hidden" and whose versions are not listed; its version id here is a stable digest of
 * the model and its schema (the real one is Replicate's; nothing of ours depends on it).
 */
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
    latest_version: versionBody(m),
  };
}

function versionBody(m: SimModel) {
  return {
    id: m.official ? createHash('sha256').update(`${m.id}\n${JSON.stringify(m.published)}`).digest('hex') : m.version,
    created_at: '2024-01-01T00:00:00.000Z',
    cog_version: '0.9.4',
    openapi_schema: { openapi: '3.0.2', info: { title: 'Cog', version: '0.1.0' }, components: { schemas: { Input: m.published } } },
  };
}

export type Api = ReturnType<typeof createApi>;

/** `webhookSecret`: what GET /v1/webhooks/default/secret answers (the key the simulator signs its webhooks with). */
export function createApi(state: State, webhookSecret: string) {
  function withDeadline(rec: Rec, ms: number | undefined): Rec {
    if (ms !== undefined) state.deadline(rec, ms);
    return rec;
  }

  /** Downloads of each prediction's outputs (not Replicate's: tests prove a copy happens once). */
  const downloads = new Map<string, number>();

  function serveFile(req: IncomingMessage, res: ServerResponse, id: string, name: string): void {
    const rec = state.find(id);
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

  /**
   * 201 with the new prediction; with `Prefer: wait[=n]`, once it is terminal or n seconds (max 60) have passed.
   * Faults on demand: `[hang]` answers after hangMs, `[early]` after the prediction ended and its webhooks were
   * delivered, `[down]` answers 500 (the prediction was created and runs all the same).
   */
  async function created(req: IncomingMessage, res: ServerResponse, rec: Rec): Promise<void> {
    const prefer = /(?:^|[,;\s])wait(?:=(\d+))?/i.exec(String(req.headers.prefer ?? ''));
    if (prefer) await state.waitFor(rec, Math.min(60, Math.max(1, prefer[1] ? Number(prefer[1]) : 60)));
    if (rec.markers.has('hang')) await holdFor(res, state.hangMs());
    if (rec.markers.has('early')) {
      await state.waitFor(rec, 600);
      await rec.deliveries;
    }
    if (res.destroyed) return;
    if (rec.markers.has('down')) throw problem(500, 'Internal server error', 'An unexpected error occurred.');
    sendJson(res, 201, rec.p, { location: rec.p.urls.get });
  }

  return {
    serveFile,
    downloadCount: (res: ServerResponse, id: string) => sendJson(res, 200, { downloads: downloads.get(id) ?? 0 }),
    status: (res: ServerResponse) => sendJson(res, 200, { simulator: 'replicate', predictions: state.all().length }),

    /** POST /v1/predictions: a model by version (SDXL). */
    async createForVersion(req: IncomingMessage, res: ServerResponse): Promise<void> {
      const body = await jsonBody(req);
      if (rateLimited(body)) throw busy();
      const model = modelOfVersion(body.version);
      const deadline = cancelAfterMs(req.headers['cancel-after']);
      return created(req, res, withDeadline(state.create(model, parseCreate(model, body), model.version), deadline));
    },

    /** POST /v1/models/{owner}/{name}/predictions: an official model (Wan, Pixverse). */
    async createForModel(req: IncomingMessage, res: ServerResponse, owner: string, name: string): Promise<void> {
      const model = officialModelOf(`${owner}/${name}`);
      const body = await jsonBody(req);
      if (rateLimited(body)) throw busy();
      const deadline = cancelAfterMs(req.headers['cancel-after']);
      return created(req, res, withDeadline(state.create(model, parseCreate(model, body), model.version), deadline));
    },

    /** GET /v1/models/{owner}/{name}, and one of its versions (community models; official ones list none). */
    model(res: ServerResponse, owner: string, name: string, version?: string): void {
      const model = SIM_MODELS.find((x) => x.id === `${owner}/${name}`);
      if (!model) throw notFound();
      if (version === undefined) return sendJson(res, 200, modelBody(model));
      if (model.official || version !== model.version) throw notFound();
      sendJson(res, 200, versionBody(model));
    },

    account: (res: ServerResponse) => sendJson(res, 200, { type: 'user', username: 'framewright-local', name: 'Framewright (local)', github_url: null }),

    /** The secret webhooks are signed with (the deploy guide has operators fetch it from here). */
    webhookSecret: (res: ServerResponse) => sendJson(res, 200, { key: webhookSecret }),

    /** Replicate's list: newest first, 100 a page, `next` the full URL of the next page. */
    list(res: ServerResponse, url: URL): void {
      const all = state.all().map((r) => r.p).reverse();
      const offset = Math.max(0, Number.parseInt(url.searchParams.get('cursor') ?? '0', 10) || 0);
      const results = all.slice(offset, offset + LIST_PAGE);
      const next = offset + LIST_PAGE < all.length ? `${state.apiBase()}/v1/predictions?cursor=${offset + LIST_PAGE}` : null;
      const previous = offset > 0 ? `${state.apiBase()}/v1/predictions?cursor=${Math.max(0, offset - LIST_PAGE)}` : null;
      sendJson(res, 200, { next, previous, results });
    },

    get(res: ServerResponse, id: string): void {
      const rec = state.find(id);
      if (!rec) throw notFound();
      sendJson(res, 200, rec.p);
    },

    cancel(res: ServerResponse, id: string): void {
      const rec = state.get(id);
      if (!rec) throw notFound();
      state.cancel(rec);
      sendJson(res, 200, rec.p);
    },
  };
}
