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
  return { id: p.id, status: p.status, output, ...(error ? { error } : {}), ...(p.data_removed ? { dataRemoved: true } : {}) };
}

const statusOf = (err: unknown) => (err as { response?: { status?: number } }).response?.status;

/** Replicate's answer to a refused request, reduced to what a user can act on. */
function refusal(err: unknown): Error | undefined {
  const status = statusOf(err);
  // 429 survives the client's own retries (it retries 429 five times): nothing was created.
  if (status === 429) return new ProviderBusy('Replicate is rate limiting predictions');
  if (status !== 422 && status !== 400) return undefined;
  const detail = /"detail":\s*"((?:[^"\\]|\\.)*)"/.exec((err as Error).message ?? '')?.[1];
  return new ProviderRefused(humanRefusal(detail ? (JSON.parse(`"${detail}"`) as string) : undefined));
}

/**
 * Headers for the calls made within one operation: the client sets `Prefer` itself but has no option for
 * `Cancel-After`, so its fetch adds the ones the operation put here (per async context: concurrent calls never mix).
 */
const callHeaders = new AsyncLocalStorage<Readonly<Record<string, string>>>();

/** A call to Replicate's API as its rate limits count it: creating a prediction, or anything else. */
export type ProviderCallKind = 'create' | 'other';

/** A create posts to `…/predictions` (a version's, an official model's or a deployment's); nothing else does. */
const CREATE_PATH = /\/predictions$/;

function withCallHeaders(base: typeof fetch, onCall?: (kind: ProviderCallKind) => void): typeof fetch {
  return (input, init) => {
    if (onCall) {
      const url = new URL(input instanceof Request ? input.url : String(input));
      const method = (init?.method ?? (input instanceof Request ? input.method : 'GET')).toUpperCase();
      // Each attempt of the client's own retries is a call Replicate counts.
      onCall(method === 'POST' && CREATE_PATH.test(url.pathname) ? 'create' : 'other');
    }
    const extra = callHeaders.getStore();
    if (!extra) return base(input, init);
    const headers = new Headers(init?.headers);
    for (const [k, v] of Object.entries(extra)) headers.set(k, v);
    return base(input, { ...init, headers });
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
  const client = new Replicate({ auth: opts.token, ...(opts.baseUrl ? { baseUrl: opts.baseUrl } : {}), fetch: withCallHeaders(opts.fetchImpl ?? fetch, opts.onCall) });
  const timeoutMs = opts.timeoutMs ?? DEFAULT_PROVIDER_TIMEOUT_MS;
  // One deadline per operation: the client retries (and swallows) failed fetches, so a per-request timeout alone
  // would multiply by its attempts.
  const deadline = () => AbortSignal.timeout(timeoutMs);
  return {
    async create(req) {
      try {
        // Replicate stops a prediction at its deadline (aborted before it starts, canceled after): nothing is billed
        // past it, and its webhook ends the job with a refund.
        const headers: Record<string, string> = req.cancelAfterSeconds ? { 'Cancel-After': `${req.cancelAfterSeconds}s` } : {};
        const p = await callHeaders.run(headers, () => client.predictions.create({
          ...(req.version ? { version: req.version } : { model: req.model }),
          input: req.input,
          webhook: req.webhookUrl,
          webhook_events_filter: ['start', 'completed'],
          // Never longer than the call's own deadline allows: an answer cut off by it would look like a failure.
          ...(req.waitSeconds ? { wait: Math.max(1, Math.min(req.waitSeconds, Math.floor(timeoutMs / 1000) - 2)) } : {}),
          signal: deadline(),
        } as Parameters<typeof client.predictions.create>[0]));
        return toPrediction(p as ReplicatePrediction);
      } catch (err) {
        throw refusal(err) ?? err;
      }
    },
    async get(id) {
      try {
        return toPrediction((await client.predictions.get(id, { signal: deadline() })) as ReplicatePrediction);
      } catch (err) {
        if (statusOf(err) === 404) throw new PredictionNotFound(id);
        throw err;
      }
    },
    async cancel(id) {
      await client.predictions.cancel(id, { signal: deadline() });
    },
    async listSince(since) {
      // Newest first, 100 a page: stop at the first page that reaches back past `since`.
      const signal = deadline();
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
    },
  };
}
