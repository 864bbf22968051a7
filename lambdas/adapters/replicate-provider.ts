import { AsyncLocalStorage } from 'node:async_hooks';
import Replicate from 'replicate';
import { humanRefusal } from '../domain/job-messages';
import {
  PredictionNotFound,
  ProviderBusy,
  ProviderRefused,
  type ListedPrediction,
  type ModelProvider,
  type ProviderPrediction,
} from '../ports/model-provider';

/** A prediction as Replicate sends it, from the API and in webhook bodies. */
export interface ReplicatePrediction {
  id: string;
  status: ProviderPrediction['status'];
  output?: unknown;
  error?: unknown;
  data_removed?: boolean;
  metrics?: { predict_time?: number };
}

/**
 * Every call to Replicate ends within this time (retries included), well inside the shortest function that calls
 * it (25 s): a slow create must not outlive the function between the charge and recording the prediction id.
 */
export const DEFAULT_PROVIDER_TIMEOUT_MS = 10_000;

/** Replicate's error as text: a string, or an object's detail/message (never "[object Object]"). */
export function errorText(error: unknown): string | undefined {
  if (error === null || error === undefined || error === '') return undefined;
  if (typeof error === 'string') return error;
  if (typeof error === 'object') {
    const e = error as { detail?: unknown; message?: unknown; title?: unknown };
    for (const v of [e.detail, e.message, e.title]) if (typeof v === 'string' && v) return v;
    return JSON.stringify(error);
  }
  return String(error);
}

/** Replicate's output (a URL or an array of them) and error, in the port's shape. */
export function toPrediction(p: ReplicatePrediction): ProviderPrediction {
  const output = Array.isArray(p.output) ? p.output.map(String) : p.output ? [String(p.output)] : [];
  const error = errorText(p.error);
  const predictTime = p.metrics?.predict_time;
  return {
    id: p.id,
    status: p.status,
    output,
    ...(error ? { error } : {}),
    ...(p.data_removed ? { dataRemoved: true } : {}),
    ...(typeof predictTime === 'number' && Number.isFinite(predictTime) ? { predictTime } : {}),
  };
}

const statusOf = (err: unknown) => (err as { response?: { status?: number } }).response?.status;

/** Replicate's answer to a refused request, reduced to what a user can act on. */
function refusal(err: unknown): Error | undefined {
  const status = statusOf(err);
  // 429 outlasted our backoff (or asked for a longer wait than we take): nothing was created.
  if (status === 429) return new ProviderBusy('Replicate is rate limiting predictions');
  if (status !== 422 && status !== 400) return undefined;
  const detail = /"detail":\s*"((?:[^"\\]|\\.)*)"/.exec((err as Error).message ?? '')?.[1];
  return new ProviderRefused(humanRefusal(detail ? (JSON.parse(`"${detail}"`) as string) : undefined));
}

/** A call to Replicate's API as its rate limits count it: creating a prediction, or anything else. */
export type ProviderCallKind = 'create' | 'other';

/** A create posts to `…/predictions` (a version's, an official model's or a deployment's); nothing else does. */
const CREATE_PATH = /\/predictions$/;

/**
 * How a call backs off when Replicate says wait: a 429 (its rate limits answer with `Retry-After`), or a 5xx that
 * carries `Retry-After`. The call is sent again once the header's time has passed, plus up to `jitter` of it more (so
 * the calls a throttle refused together do not all come back in the same instant), at most `maxRetries` times; a
 * wait longer than `maxWaitMs`, or one that would end past the operation's deadline, is not waited: the refusal is the
 * answer at once (a 429 becomes ProviderBusy, and start-job holds the job in our own queue).
 */
export const BACKOFF = { maxRetries: 3, maxWaitMs: 5_000, jitter: 0.2, defaultWaitMs: 1_000 } as const;

/** `Retry-After` in ms: delay-seconds or an HTTP-date (RFC 9110 10.2.3); undefined when absent or unreadable. */
export function retryAfterMs(header: string | null, now = Date.now()): number | undefined {
  if (header === null || header.trim() === '') return undefined;
  const text = header.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  return Number.isNaN(at) ? undefined : Math.max(0, at - now);
}

/** How long to wait before sending a refused call again, or undefined when it is not to be sent again. */
function waitBefore(res: Response): number | undefined {
  const told = retryAfterMs(res.headers.get('retry-after'));
  if (res.status === 429) return told ?? BACKOFF.defaultWaitMs;
  if (res.status >= 500 && told !== undefined) return told;
  return undefined;
}

const sleep = (ms: number, signal?: AbortSignal | null) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason as Error);
    const t = setTimeout(() => {
      signal?.removeEventListener('abort', stop);
      resolve();
    }, ms);
    function stop() {
      clearTimeout(t);
      reject(signal!.reason as Error);
    }
    signal?.addEventListener('abort', stop, { once: true });
  });

/** One operation of the adapter (a create, a get, a list...): its extra headers, its deadline, the refusals it kept. */
interface Operation {
  /** The client sets `Prefer` itself but has no option for `Cancel-After`: the fetch adds the ones put here. */
  headers: Readonly<Record<string, string>>;
  /** Epoch ms after which no wait is started. */
  deadlineAt: number;
  /** The refused answer each call (method and URL) ended with, once our backoff gave up on it. */
  refused: Map<string, Response>;
}

/** Per async context, so concurrent operations never mix. */
const operations = new AsyncLocalStorage<Operation>();

/**
 * The client's fetch, with our backoff. Why it is here and not the client's: `replicate` 1.4.0's own retry
 * (`withAutomaticRetries` in replicate/lib/util.js) never sleeps. It checks `Number.isInteger` on the Retry-After
 * header's string (never an integer, so it reads it as a date) and then on its own delay, which has a random jitter
 * added (never an integer either), so under a 429 it sends the same call six times within milliseconds, each one
 * spending the account's create budget (600 a minute) and deepening the throttle. The client has no option to turn
 * it off, so it is made harmless instead: we wait and send again here, and once we give up on a call its refusal is
 * kept for the operation, and the client's own re-sends of that call are answered with it without reaching Replicate
 * (test/local/replicate-sim-limits.test.ts shows both the client's six calls and ours).
 */
function backingOff(base: typeof fetch, onCall?: (kind: ProviderCallKind) => void): typeof fetch {
  return async (input, init) => {
    const url = new URL(input instanceof Request ? input.url : String(input));
    const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
    const op = operations.getStore();
    const key = `${method} ${url.href}`;
    const kept = op?.refused.get(key);
    if (kept) return kept.clone();
    const headers = new Headers(init?.headers);
    for (const [k, v] of Object.entries(op?.headers ?? {})) headers.set(k, v);
    const kind: ProviderCallKind = method === 'POST' && CREATE_PATH.test(url.pathname) ? 'create' : 'other';
    for (let retries = 0; ; retries++) {
      // Each call sent, a retry too, is a call Replicate counts against the account's budget.
      onCall?.(kind);
      const res = await base(input, { ...init, headers });
      if (res.ok) return res;
      const told = waitBefore(res);
      const wait = told === undefined ? undefined : Math.ceil(told * (1 + Math.random() * BACKOFF.jitter));
      const giveUp =
        wait === undefined || retries >= BACKOFF.maxRetries || told! > BACKOFF.maxWaitMs || (op !== undefined && Date.now() + wait > op.deadlineAt);
      if (giveUp) {
        // Kept (before the client reads it) for the client's own re-sends of this call, which never go out.
        op?.refused.set(key, res.clone());
        return res;
      }
      await res.body?.cancel();
      await sleep(wait, init?.signal);
    }
  };
}

/** The official `replicate` client, pointed at REPLICATE_BASE_URL (the simulator locally). */
export function replicateProvider(opts: {
  token: string;
  baseUrl?: string;
  fetchImpl?: typeof fetch;
  timeoutMs?: number;
  /** Told of every call to the API (the rate limits' metrics). */
  onCall?: (kind: ProviderCallKind) => void;
}): ModelProvider {
  const client = new Replicate({ auth: opts.token, ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}), fetch: backingOff(opts.fetchImpl ?? fetch, opts.onCall) });
  const timeoutMs = opts.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  /**
   * Runs one operation under one deadline (its signal aborts the call, a backoff's wait included): the client would
   * otherwise retry (and swallow) failed fetches, so a per-request timeout alone would multiply by its attempts.
   */
  const run = <T>(headers: Record<string, string>, call: (signal: AbortSignal) => Promise<T>): Promise<T> =>
    operations.run({ headers, deadlineAt: Date.now() + timeoutMs, refused: new Map() }, () => call(AbortSignal.timeout(timeoutMs)));
  return {
    async create(req) {
      try {
        // Replicate stops a prediction at its deadline (aborted before it starts, canceled after): nothing is billed
        // past it, and its webhook ends the job with a refund.
        const headers: Record<string, string> = req.cancelAfterSeconds ? { 'Cancel-After': `${req.cancelAfterSeconds}s` } : {};
        const p = await run(headers, (signal) => client.predictions.create({
          ...(req.version ? { version: req.version } : { model: req.model }),
          input: req.input,
          webhook: req.webhookUrl,
          webhook_events_filter: ['start', 'completed'],
          // Never longer than the call's own deadline allows: an answer cut off by it would look like a failure.
          ...(req.waitSeconds ? { wait: Math.max(1, Math.min(req.waitSeconds, Math.floor(timeoutMs / 1000) - 2)) } : {}),
          signal,
        } as Parameters<typeof client.predictions.create>[0]));
        return toPrediction(p as ReplicatePrediction);
      } catch (err) {
        throw refusal(err) ?? err;
      }
    },
    async get(id) {
      try {
        return toPrediction((await run({}, (signal) => client.predictions.get(id, { signal }))) as ReplicatePrediction);
      } catch (err) {
        if (statusOf(err) === 404) throw new PredictionNotFound(id);
        throw err;
      }
    },
    async cancel(id) {
      await run({}, (signal) => client.predictions.cancel(id, { signal }));
    },
    async listSince(since) {
      // Newest first, 100 a page: stop at the first page that reaches back past `since`.
      return run({}, async (signal) => {
        const found: ListedPrediction[] = [];
        for await (const page of client.paginate(() => client.predictions.list({ signal }), { signal })) {
          let older = false;
          for (const p of page) {
            if (Date.parse(p.created_at) < since.getTime()) older = true;
            else found.push({ id: p.id, status: p.status as ListedPrediction['status'], createdAt: p.created_at, ...(p.webhook ? { webhook: p.webhook } : {}) });
          }
          if (older) break;
        }
        return found;
      });
    },
  };
}
