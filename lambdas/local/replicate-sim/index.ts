/**
 * A Replicate-compatible HTTP simulator, used by `npm start` and the tests instead of api.replicate.com.
 *
 * - node:http only. State lives in memory: it is a simulator, and a restart forgets every prediction and output.
 * - API (Replicate's shapes; `/v1` prefix optional, so both `baseUrl: url + '/v1'` and `baseUrl: url` work):
 *     POST /v1/predictions                          {version, input, webhook?, webhook_events_filter?}  (SDXL)
 *     POST /v1/models/{owner}/{name}/predictions     {input, webhook?, webhook_events_filter?}  (Wan i2v/t2v, Pixverse)
 *     GET  /v1/predictions, GET /v1/predictions/{id}, POST /v1/predictions/{id}/cancel
 *     GET|HEAD /files/{predictionId}/{name}          the outputs (no auth, like replicate.delivery; 404 after the TTL)
 *   Every /v1 call needs `Authorization: Bearer <apiToken>` (or `Token <apiToken>`).
 * - `Prefer: wait[=n]` is honoured: the create call holds the response until the prediction is terminal or n seconds
 *   (default and max 60) have passed, then answers 201 with the prediction as it is.
 * - Lifecycle: starting -> processing at 10% of the run time -> succeeded/failed at 100% (imageMs for SDXL, videoMs
 *   for video; [slow] triples it), but never before the output file is really generated. Media is generated off the
 *   request path as soon as the prediction is created (images two at a time, videos one at a time).
 * - Webhooks (Standard Webhooks signing, as Replicate): 'start' on creation, 'logs' at processing and mid-run,
 *   'output'/'completed' at the end, filtered by webhook_events_filter (default all four). Deliveries of one
 *   prediction go out in order; a failed delivery is retried twice (after 1 s and 5 s) in the background.
 * - Outputs of API predictions disappear after outputTtlMs (Replicate: about an hour); the prediction then reports
 *   `data_removed: true` and its output URLs answer 404.
 * - Prompt markers (see SIM_MARKERS) inject failures.
 */
import http from 'node:http';
import { setMaxListeners } from 'node:events';
import { randomBytes, randomInt } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { byteRange } from '../byte-range';
import { signWebhook, webhookSecretKey } from './signing';
import { modelByVersion, officialModel, SIM_MODELS, validateInput, withDefaults, type InvalidField, type SimModel } from './models';
import { downloadImage, MediaError, renderImage, renderVideo, startImageSize } from './media';

export { signWebhook } from './signing';

/** `[fail]` in the prompt: the prediction ends as failed with FAIL_ERROR. */
export const FAIL_MARKER = '[fail]';
/** `[nsfw]` in the prompt: the prediction fails with NSFW_ERROR, as SDXL's safety checker does. */
export const NSFW_MARKER = '[nsfw]';
/** `[reject]` in the prompt: creating the prediction is refused with 422. */
export const REJECT_MARKER = '[reject]';
/** `[slow]` in the prompt: the prediction takes three times as long. */
export const SLOW_MARKER = '[slow]';
/** `[nowebhook]` in the prompt: no webhook is ever sent (to test the polling fallback). */
export const NO_WEBHOOK_MARKER = '[nowebhook]';
/** All failure-injection markers, matched case-insensitively anywhere in `input.prompt`. */
export const SIM_MARKERS = {
  fail: FAIL_MARKER,
  nsfw: NSFW_MARKER,
  reject: REJECT_MARKER,
  slow: SLOW_MARKER,
  noWebhook: NO_WEBHOOK_MARKER,
} as const;

export const FAIL_ERROR = 'Prediction failed: simulated model error';
export const NSFW_ERROR = 'NSFW content detected. Try running it again, or try a different prompt.';

export type PredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
export type WebhookEvent = 'start' | 'output' | 'logs' | 'completed';
const WEBHOOK_EVENTS: readonly WebhookEvent[] = ['start', 'output', 'logs', 'completed'];

/** A prediction as Replicate's API returns it. */
export interface SimPrediction {
  id: string;
  model: string;
  version: string;
  input: Record<string, unknown>;
  logs: string;
  output: string[] | string | null;
  data_removed: boolean;
  error: string | null;
  status: PredictionStatus;
  source: 'api';
  created_at: string;
  started_at: string | null;
  completed_at: string | null;
  urls: { get: string; cancel: string; web: string; stream?: string };
  metrics: { predict_time?: number; total_time?: number };
}

export interface ReplicateSimOptions {
  host?: string;
  port?: number;
  apiToken: string;
  webhookSecret: string;
  imageMs?: number;
  videoMs?: number;
  /** Frame rate the videos are encoded at (1 to 8, default 8): tests lower it to spend less CPU. */
  videoFps?: number;
  outputTtlMs?: number;
  publicBaseUrl?: string;
  fetchImpl?: typeof fetch;
}

export interface ReplicateSim {
  url: string;
  close(): Promise<void>;
  /** test hooks */
  predictions(): SimPrediction[];
  setTimings(t: { imageMs?: number; videoMs?: number; outputTtlMs?: number }): void;
}

interface OutputFile {
  data: Buffer;
  type: string;
}

type JobOutcome =
  | { ok: true; output: string[] | string; files: Map<string, OutputFile>; note: string }
  | { ok: false; error: string };

interface Rec {
  p: SimPrediction;
  model: SimModel;
  input: Record<string, unknown>;
  seed: number;
  createdMs: number;
  startedMs?: number;
  completedMs?: number;
  totalMs: number;
  markers: Set<keyof typeof SIM_MARKERS>;
  webhook?: string;
  events: Set<WebhookEvent>;
  timers: Set<NodeJS.Timeout>;
  abort: AbortController;
  job?: Promise<void>;
  outcome?: JobOutcome;
  timeUp: boolean;
  files: Map<string, OutputFile>;
  waiters: Set<() => void>;
  deliveries: Promise<void>;
}

/** A tiny counting semaphore. */
class Limiter {
  private running = 0;
  private queue: (() => void)[] = [];
  constructor(private readonly max: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.queue.shift()?.();
    }
  }
}

class HttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
  ) {
    super(String(body.detail ?? body.title ?? status));
  }
}

function problem(status: number, title: string, detail: string, extra: Record<string, unknown> = {}): HttpError {
  return new HttpError(status, { title, detail, status, ...extra });
}

function validationError(fields: InvalidField[]): HttpError {
  const detail = fields.map((f) => `- ${f.field}: ${f.description}\n`).join('');
  return problem(422, 'Input validation failed', detail, { invalid_fields: fields });
}

const notFound = () => problem(404, 'Not found', 'The requested resource could not be found.');

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
function predictionId(): string {
  return Array.from(randomBytes(26), (b) => BASE32[b & 31]).join('');
}

function tqdm(done: number, total: number, elapsedS: number): string {
  const frac = total ? done / total : 1;
  const filled = Math.floor(frac * 10);
  const bar = '█'.repeat(filled) + (filled < 10 ? ' '.repeat(10 - filled) : '');
  const rate = elapsedS > 0 ? (done / elapsedS).toFixed(2) : '?';
  const mmss = (s: number) => `${String(Math.floor(s / 60)).padStart(2, '0')}:${String(Math.floor(s % 60)).padStart(2, '0')}`;
  return `${String(Math.round(frac * 100)).padStart(3)}%|${bar}| ${done}/${total} [${mmss(elapsedS)}<00:00, ${rate}it/s]`;
}

const even = (n: number) => Math.round(n / 2) * 2;

type Size = { width: number; height: number };

/** Pixverse's frame: the quality is the short side; with a start image, the aspect ratio nearest to the image's. */
function pixverseSize(quality: string, aspect: string, start?: Size): Size {
  if (start) {
    const r = start.width / start.height;
    const nearest = ([['16:9', 16 / 9], ['9:16', 9 / 16], ['1:1', 1]] as const).reduce((a, b) =>
      Math.abs(Math.log(b[1] / r)) < Math.abs(Math.log(a[1] / r)) ? b : a,
    );
    aspect = nearest[0];
  }
  const h = Number.parseInt(quality, 10);
  const long = even((h * 16) / 9);
  if (aspect === '9:16') return { width: h, height: long };
  if (aspect === '1:1') return { width: h, height: h };
  return { width: long, height: h };
}

/** Wan 2.1 text-to-video: 832x480 for 16:9, 480x832 for 9:16. */
function wanT2vSize(aspect: string): Size {
  return aspect === '9:16' ? { width: 480, height: 832 } : { width: 832, height: 480 };
}

/**
 * Wan 2.1 image-to-video, as its reference code sizes the frame: the start image's aspect ratio within the area of
 * max_area (832x480 and 480x832 are the same area), both sides multiples of 16. An 832x480 image gives 832x480.
 */
function wanI2vSize(maxArea: string, start: Size): Size {
  const [aw, ah] = maxArea.split('x').map(Number) as [number, number];
  const area = aw * ah;
  // area * w / h rather than area / (h / w): exact for integer inputs, so 832x480 maps to itself.
  const side = (v: number) => Math.max(16, Math.floor(v / 16 + 1e-9) * 16);
  return { width: side(Math.sqrt((area * start.width) / start.height)), height: side(Math.sqrt((area * start.height) / start.width)) };
}

async function readBody(req: http.IncomingMessage, limit = 32 * 1024 * 1024): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > limit) throw problem(413, 'Payload too large', 'The request body is too large.');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

export async function startReplicateSimulator(opts: ReplicateSimOptions): Promise<ReplicateSim> {
  if (!opts.apiToken) throw new Error('startReplicateSimulator: apiToken is required');
  webhookSecretKey(opts.webhookSecret); // throws on a malformed secret
  const fetchImpl = opts.fetchImpl ?? globalThis.fetch;
  const timings = {
    imageMs: opts.imageMs ?? 4_000,
    videoMs: opts.videoMs ?? 30_000,
    outputTtlMs: opts.outputTtlMs ?? 3_600_000,
  };
  const recs = new Map<string, Rec>();
  const imageLimiter = new Limiter(2);
  const videoLimiter = new Limiter(1);
  const closing = new AbortController();
  setMaxListeners(0, closing.signal); // one listener per in-flight webhook delivery
  let baseUrl = '';
  let filesBase = '';

  // ---------- outputs and their expiry ----------
  const expired = (rec: Rec) => rec.completedMs !== undefined && Date.now() >= rec.completedMs + timings.outputTtlMs;
  function sweep(): void {
    for (const rec of recs.values()) {
      if (rec.files.size && expired(rec)) {
        rec.files.clear();
        rec.p.data_removed = true;
      }
    }
  }
  const sweeper = setInterval(sweep, 5_000);
  sweeper.unref();

  // ---------- webhooks ----------
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const onAbort = () => {
        clearTimeout(t);
        resolve();
      };
      const t = setTimeout(() => {
        closing.signal.removeEventListener('abort', onAbort);
        resolve();
      }, ms);
      closing.signal.addEventListener('abort', onAbort, { once: true });
    });

  async function deliver(url: string, msgId: string, body: string): Promise<void> {
    for (const delay of [0, 1_000, 5_000]) {
      if (delay) await sleep(delay);
      if (closing.signal.aborted) return;
      const ts = Math.floor(Date.now() / 1000);
      try {
        const res = await fetchImpl(url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'user-agent': 'Replicate-Webhook/1.0 (simulator)',
            'webhook-id': msgId,
            'webhook-timestamp': String(ts),
            'webhook-signature': signWebhook(opts.webhookSecret, msgId, ts, body),
          },
          body,
          signal: AbortSignal.any([closing.signal, AbortSignal.timeout(10_000)]),
        });
        await res.arrayBuffer().catch(() => undefined);
        if (res.ok) return;
      } catch {
        /* unreachable receiver: retry, then give up quietly */
      }
    }
  }

  function notify(rec: Rec, event: WebhookEvent): void {
    if (!rec.webhook || rec.markers.has('noWebhook') || closing.signal.aborted) return;
    const wanted =
      rec.events.has(event) ||
      // the final delivery carries the output: send it when either is wanted, once
      (event === 'completed' && rec.events.has('output') && rec.p.status === 'succeeded');
    if (!wanted) return;
    const url = rec.webhook;
    const body = JSON.stringify(rec.p);
    const msgId = `msg_${randomBytes(12).toString('hex')}`;
    rec.deliveries = rec.deliveries.then(() => deliver(url, msgId, body)).catch(() => undefined);
  }

  // ---------- lifecycle ----------
  function later(rec: Rec, ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      rec.timers.delete(t);
      fn();
    }, ms);
    rec.timers.add(t);
  }

  const terminal = (s: PredictionStatus) => s === 'succeeded' || s === 'failed' || s === 'canceled';
  const log = (rec: Rec, line: string) => {
    rec.p.logs += `${line}\n`;
  };

  function wake(rec: Rec): void {
    for (const w of rec.waiters) w();
    rec.waiters.clear();
  }

  function startProcessing(rec: Rec): void {
    if (rec.p.status !== 'starting') return;
    rec.startedMs = Date.now();
    rec.p.status = 'processing';
    rec.p.started_at = new Date(rec.startedMs).toISOString();
    const i = rec.input;
    if (rec.model.kind === 'image') {
      log(rec, `Using seed: ${rec.seed}`);
      log(rec, 'Ensuring enough disk space...');
      log(rec, `Free disk space: ${1_800_000_000_000 + randomInt(100_000_000_000)}`);
      log(rec, i.image ? 'img2img mode' : 'txt2img mode');
      log(rec, tqdm(0, Number(i.num_inference_steps), 0));
    } else if (rec.model.id.startsWith('pixverse/')) {
      log(rec, `Using seed: ${rec.seed}`);
      log(rec, `Submitting ${i.image ? 'image-to-video' : 'text-to-video'} task: ${i.quality}, ${i.duration}s, ${i.aspect_ratio}`);
      log(rec, 'Task status: processing');
    } else {
      log(rec, `Using seed: ${rec.seed}`);
      log(rec, `Generating ${i.num_frames} frames at ${i.frames_per_second} fps (fast_mode=${i.fast_mode})`);
      log(rec, tqdm(0, Number(i.sample_steps), 0));
    }
    notify(rec, 'logs');
  }

  function midway(rec: Rec): void {
    if (rec.p.status !== 'processing') return;
    const elapsed = (Date.now() - (rec.startedMs ?? rec.createdMs)) / 1000;
    const i = rec.input;
    if (rec.model.kind === 'image') {
      const n = Number(i.num_inference_steps);
      log(rec, tqdm(Math.floor(n / 2), n, elapsed));
    } else if (rec.model.id.startsWith('pixverse/')) {
      log(rec, 'Task status: rendering (50%)');
    } else {
      const n = Number(i.sample_steps);
      log(rec, tqdm(Math.floor(n / 2), n, elapsed));
    }
    notify(rec, 'logs');
  }

  function finish(rec: Rec, status: 'succeeded' | 'failed', error: string | null): void {
    rec.completedMs = Date.now();
    rec.p.status = status;
    rec.p.error = error;
    rec.p.started_at ??= new Date(rec.completedMs).toISOString();
    rec.p.completed_at = new Date(rec.completedMs).toISOString();
    rec.p.metrics = {
      predict_time: Math.round((rec.completedMs - (rec.startedMs ?? rec.completedMs)) / 10) / 100,
      total_time: Math.round((rec.completedMs - rec.createdMs) / 10) / 100,
    };
    for (const t of rec.timers) clearTimeout(t);
    rec.timers.clear();
    notify(rec, 'completed');
    wake(rec);
  }

  /** Ends the prediction once its time is up and (for a success) its media exists. */
  function maybeFinish(rec: Rec): void {
    if (terminal(rec.p.status) || !rec.timeUp) return;
    if (rec.p.status === 'starting') startProcessing(rec);
    if (rec.markers.has('nsfw')) {
      log(rec, 'Potential NSFW content detected in output');
      return finish(rec, 'failed', NSFW_ERROR);
    }
    if (rec.markers.has('fail')) {
      log(rec, 'Traceback (most recent call last):');
      log(rec, 'RuntimeError: simulated model error');
      return finish(rec, 'failed', FAIL_ERROR);
    }
    const outcome = rec.outcome;
    if (!outcome) return; // still generating: finish when the job settles
    if (!outcome.ok) {
      log(rec, outcome.error);
      return finish(rec, 'failed', outcome.error);
    }
    const i = rec.input;
    if (rec.model.kind === 'image') {
      const n = Number(i.num_inference_steps);
      log(rec, tqdm(n, n, (Date.now() - (rec.startedMs ?? rec.createdMs)) / 1000));
    } else if (rec.model.id.startsWith('pixverse/')) {
      log(rec, 'Task status: completed');
    } else {
      const n = Number(i.sample_steps);
      log(rec, tqdm(n, n, (Date.now() - (rec.startedMs ?? rec.createdMs)) / 1000));
    }
    log(rec, outcome.note);
    rec.files = outcome.files;
    rec.p.output = outcome.output;
    finish(rec, 'succeeded', null);
  }

  async function generate(rec: Rec): Promise<JobOutcome> {
    const i = rec.input;
    const prompt = String(i.prompt ?? '');
    const fileUrl = (name: string) => `${filesBase}/files/${rec.p.id}/${name}`;
    const t0 = Date.now();
    try {
      const start = typeof i.image === 'string' ? await downloadImage(i.image, fetchImpl) : undefined;
      if (rec.abort.signal.aborted) return { ok: false, error: 'canceled' };
      const files = new Map<string, OutputFile>();
      if (rec.model.kind === 'image') {
        const size = start ? await startImageSize(start) : { width: Number(i.width), height: Number(i.height) };
        const urls: string[] = [];
        for (let k = 0; k < Number(i.num_outputs); k++) {
          const png = await renderImage({
            ...size,
            prompt,
            seed: rec.seed,
            index: k,
            ...(start ? { startImage: start } : {}),
            promptStrength: Number(i.prompt_strength),
          });
          files.set(`out-${k}.png`, { data: png, type: 'image/png' });
          urls.push(fileUrl(`out-${k}.png`));
        }
        return { ok: true, output: urls, files, note: `Generated ${urls.length} image(s) of ${size.width}x${size.height} in ${Date.now() - t0} ms` };
      }
      let size: Size;
      let seconds: number;
      const startSize = start ? await startImageSize(start) : undefined;
      if (rec.model.id.startsWith('pixverse/')) {
        size = pixverseSize(String(i.quality), String(i.aspect_ratio), startSize);
        seconds = Number(i.duration);
      } else {
        size = startSize ? wanI2vSize(String(i.max_area), startSize) : wanT2vSize(String(i.aspect_ratio));
        seconds = Number(i.num_frames) / Number(i.frames_per_second);
      }
      const video = await renderVideo({
        ...size,
        seconds,
        prompt,
        seed: rec.seed,
        ...(start ? { startImage: start } : {}),
        ...(opts.videoFps ? { fps: opts.videoFps } : {}),
        signal: rec.abort.signal,
      });
      files.set('output.mp4', { data: video.mp4, type: 'video/mp4' });
      return {
        ok: true,
        output: fileUrl('output.mp4'),
        files,
        note: `Encoded ${video.frames} frames (${size.width}x${size.height}, ${video.fps} fps) in ${video.ms} ms`,
      };
    } catch (err) {
      if (err instanceof MediaError) return { ok: false, error: err.message };
      return { ok: false, error: `Prediction failed: ${(err as Error).message}` };
    }
  }

  function create(model: SimModel, body: Record<string, unknown>, versionField: string): Rec {
    const fields = validateInput(model, body.input);
    if (fields.length) throw validationError(fields);
    const raw = body.input as Record<string, unknown>;
    let webhook: string | undefined;
    if (body.webhook !== undefined && body.webhook !== null && body.webhook !== '') {
      let ok = typeof body.webhook === 'string';
      if (ok) {
        try {
          ok = ['http:', 'https:'].includes(new URL(body.webhook as string).protocol);
        } catch {
          ok = false;
        }
      }
      if (!ok) throw validationError([{ type: 'format', field: 'webhook', description: "Does not match format 'uri'" }]);
      webhook = body.webhook as string;
    }
    let events = new Set<WebhookEvent>(WEBHOOK_EVENTS);
    if (body.webhook_events_filter !== undefined && body.webhook_events_filter !== null) {
      const f = body.webhook_events_filter;
      if (!Array.isArray(f) || f.some((e) => !WEBHOOK_EVENTS.includes(e as WebhookEvent))) {
        throw validationError([
          {
            type: 'enum',
            field: 'webhook_events_filter',
            description: `webhook_events_filter must be an array of: ${WEBHOOK_EVENTS.map((e) => `"${e}"`).join(', ')}`,
          },
        ]);
      }
      events = new Set(f as WebhookEvent[]);
    }
    const prompt = String(raw.prompt ?? '').toLowerCase();
    const markers = new Set(
      (Object.keys(SIM_MARKERS) as (keyof typeof SIM_MARKERS)[]).filter((k) => prompt.includes(SIM_MARKERS[k])),
    );
    if (markers.has('reject')) {
      throw validationError([
        { type: 'rejected', field: 'input.prompt', description: 'The prompt was flagged by the content filter (simulated rejection)' },
      ]);
    }
    const input = withDefaults(model, raw);
    const seed = typeof input.seed === 'number' ? input.seed : randomInt(65_536);
    const id = predictionId();
    const now = Date.now();
    const api = `${baseUrl}/v1/predictions/${id}`;
    const rec: Rec = {
      p: {
        id,
        model: model.id,
        version: versionField,
        input: raw,
        logs: '',
        output: null,
        data_removed: false,
        error: null,
        status: 'starting',
        source: 'api',
        created_at: new Date(now).toISOString(),
        started_at: null,
        completed_at: null,
        urls: { get: api, cancel: `${api}/cancel`, web: `https://replicate.com/p/${id}` },
        metrics: {},
      },
      model,
      input,
      seed,
      createdMs: now,
      totalMs: (model.kind === 'image' ? timings.imageMs : timings.videoMs) * (markers.has('slow') ? 3 : 1),
      markers,
      ...(webhook ? { webhook } : {}),
      events,
      timers: new Set(),
      abort: new AbortController(),
      timeUp: false,
      files: new Map(),
      waiters: new Set(),
      deliveries: Promise.resolve(),
    };
    recs.set(id, rec);
    if (!markers.has('fail') && !markers.has('nsfw')) {
      const limiter = model.kind === 'image' ? imageLimiter : videoLimiter;
      rec.job = limiter
        .run(async () => (rec.abort.signal.aborted ? ({ ok: false, error: 'canceled' } as const) : generate(rec)))
        .then((outcome) => {
          rec.outcome = outcome;
          maybeFinish(rec);
        });
    }
    later(rec, Math.round(rec.totalMs * 0.1), () => startProcessing(rec));
    later(rec, Math.round(rec.totalMs * 0.5), () => midway(rec));
    later(rec, rec.totalMs, () => {
      rec.timeUp = true;
      maybeFinish(rec);
    });
    notify(rec, 'start');
    return rec;
  }

  function cancel(rec: Rec): void {
    if (terminal(rec.p.status)) return;
    rec.abort.abort();
    for (const t of rec.timers) clearTimeout(t);
    rec.timers.clear();
    rec.completedMs = Date.now();
    rec.p.status = 'canceled';
    rec.p.completed_at = new Date(rec.completedMs).toISOString();
    rec.p.metrics = { total_time: Math.round((rec.completedMs - rec.createdMs) / 10) / 100 };
    notify(rec, 'completed');
    wake(rec);
  }

  // ---------- HTTP ----------
  function send(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
    const text = JSON.stringify(body);
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  }

  function serveFile(req: http.IncomingMessage, res: http.ServerResponse, id: string, name: string): void {
    const rec = recs.get(id);
    if (rec && expired(rec)) sweep();
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
    res.writeHead(status, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  }

  function authorized(req: http.IncomingMessage): boolean {
    const m = /^(?:Bearer|Token)\s+(.+)$/i.exec(req.headers.authorization ?? '');
    return !!m && m[1]!.trim() === opts.apiToken;
  }

  async function waitFor(rec: Rec, seconds: number): Promise<void> {
    if (terminal(rec.p.status)) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, seconds * 1000);
      function done() {
        clearTimeout(t);
        rec.waiters.delete(done);
        resolve();
      }
      rec.waiters.add(done);
    });
  }

  async function jsonBody(req: http.IncomingMessage): Promise<Record<string, unknown>> {
    const raw = await readBody(req);
    let parsed: unknown;
    try {
      parsed = raw.length ? JSON.parse(raw.toString('utf8')) : {};
    } catch {
      throw problem(400, 'Invalid JSON', 'The request body is not valid JSON.');
    }
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) {
      throw problem(400, 'Invalid request', 'The request body must be a JSON object.');
    }
    return parsed as Record<string, unknown>;
  }

  async function created(req: http.IncomingMessage, res: http.ServerResponse, rec: Rec): Promise<void> {
    const prefer = /(?:^|[,;\s])wait(?:=(\d+))?/i.exec(String(req.headers.prefer ?? ''));
    if (prefer) await waitFor(rec, Math.min(60, Math.max(1, prefer[1] ? Number(prefer[1]) : 60)));
    send(res, 201, rec.p, { location: rec.p.urls.get });
  }

  async function route(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const url = new URL(req.url ?? '/', 'http://sim');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';

    const file = /^\/files\/([a-z0-9]+)\/([A-Za-z0-9._-]+)$/.exec(path);
    if (file && (method === 'GET' || method === 'HEAD')) return serveFile(req, res, file[1]!, file[2]!);
    if (path === '/' && method === 'GET') return send(res, 200, { simulator: 'replicate', predictions: recs.size });

    const api = path.replace(/^\/v1(?=\/|$)/, '');
    if (!authorized(req)) {
      throw problem(401, 'Unauthenticated', 'You did not pass a valid authentication token');
    }
    let m: RegExpExecArray | null;
    if (api === '/predictions' && method === 'POST') {
      const body = await jsonBody(req);
      const v = body.version;
      if (typeof v !== 'string' || !v) {
        throw validationError([{ type: 'required', field: '(root)', description: 'version is required' }]);
      }
      // Accepted forms: "<version id>", "owner/name:<version id>", "owner/name" (official models).
      const [name, ver] = v.includes(':') ? v.split(':', 2) : v.includes('/') ? [v, undefined] : [undefined, v];
      const model = ver ? modelByVersion(ver) : officialModel(name!);
      if (!model || (name && ver && model.id !== name)) {
        throw problem(422, 'Invalid version or not permitted', 'The specified version does not exist (or perhaps you don\'t have permission to use it?)');
      }
      return created(req, res, create(model, body, model.version));
    }
    if ((m = /^\/models\/([^/]+)\/([^/]+)\/predictions$/.exec(api)) && method === 'POST') {
      const id = `${decodeURIComponent(m[1]!)}/${decodeURIComponent(m[2]!)}`;
      const model = officialModel(id);
      if (!model) {
        const known = SIM_MODELS.some((x) => x.id === id);
        throw problem(404, 'Not found', known ? `${id} is not an official model: create its predictions with a version` : 'The requested resource could not be found.');
      }
      const body = await jsonBody(req);
      return created(req, res, create(model, body, model.version));
    }
    if (api === '/predictions' && method === 'GET') {
      const results = [...recs.values()].map((r) => r.p).reverse();
      return send(res, 200, { next: null, previous: null, results });
    }
    if ((m = /^\/predictions\/([a-z0-9]+)$/.exec(api)) && method === 'GET') {
      const rec = recs.get(m[1]!);
      if (!rec) throw notFound();
      if (expired(rec)) sweep();
      return send(res, 200, rec.p);
    }
    if ((m = /^\/predictions\/([a-z0-9]+)\/cancel$/.exec(api)) && method === 'POST') {
      const rec = recs.get(m[1]!);
      if (!rec) throw notFound();
      cancel(rec);
      return send(res, 200, rec.p);
    }
    throw notFound();
  }

  const server = http.createServer((req, res) => {
    route(req, res).catch((err: unknown) => {
      if (res.headersSent) return void res.destroy();
      if (err instanceof HttpError) return send(res, err.status, err.body);
      send(res, 500, { title: 'Internal server error', detail: (err as Error).message, status: 500 });
    });
  });
  server.keepAliveTimeout = 5_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const addr = server.address() as AddressInfo;
  const host = opts.host && !['0.0.0.0', '::'].includes(opts.host) ? opts.host : '127.0.0.1';
  baseUrl = `http://${host.includes(':') ? `[${host}]` : host}:${addr.port}`;
  filesBase = (opts.publicBaseUrl ?? baseUrl).replace(/\/+$/, '');

  return {
    url: baseUrl,
    async close() {
      closing.abort();
      clearInterval(sweeper);
      const jobs: Promise<void>[] = [];
      for (const rec of recs.values()) {
        for (const t of rec.timers) clearTimeout(t);
        rec.timers.clear();
        rec.abort.abort();
        wake(rec);
        if (rec.job) jobs.push(rec.job);
        jobs.push(rec.deliveries);
      }
      await Promise.allSettled(jobs);
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      });
    },
    predictions() {
      return [...recs.values()].map((r) => structuredClone(r.p));
    },
    setTimings(t) {
      if (t.imageMs !== undefined) timings.imageMs = t.imageMs;
      if (t.videoMs !== undefined) timings.videoMs = t.videoMs;
      if (t.outputTtlMs !== undefined) timings.outputTtlMs = t.outputTtlMs;
    },
  };
}
