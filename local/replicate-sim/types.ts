/** The Replicate simulator's vocabulary: failure markers, predictions as the API returns them, the options and handle. */
import type { SimModel } from './models';

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
/** `[hang]`: the prediction is created and runs, but the create call answers only after hangMs (a slow API). */
export const HANG_MARKER = '[hang]';
/** `[busy]`: the create call answers 429 with Retry-After (rate limited); nothing is created. */
export const BUSY_MARKER = '[busy]';
/**
 * `[busy-briefly]`: create calls with this exact prompt answer 429 for SIM_BUSY_MS (default 5 s) from the first one,
 * longer than the client's own retries (a passing rate limit); later ones are taken.
 */
export const BUSY_BRIEFLY_MARKER = '[busy-briefly]';
/** `[down]`: the prediction is created and runs, but the create call answers 500 (accepted, then failed). */
export const DOWN_MARKER = '[down]';
/** `[lost]`: the prediction succeeds but its output is deleted before the webhook (its URL answers 404). */
export const LOST_MARKER = '[lost]';
/** `[early]`: the prediction runs within a second, and the create call answers only after it ended and its webhooks were delivered. */
export const EARLY_MARKER = '[early]';
/** `[dup]`: every webhook delivery is sent dupCopies times at once, with the same webhook-id. */
export const DUP_MARKER = '[dup]';
/** `[abort]`: the prediction ends `aborted` (its deadline passed before it started): no output. */
export const ABORT_MARKER = '[abort]';
/** `[stuck]`: the prediction never finishes (stays processing until canceled). */
export const STUCK_MARKER = '[stuck]';
/**
 * `[queued]`: the prediction stays `starting` (waiting for a machine, as on a cold boot) until canceled: the
 * provider has not begun it, so it bills nothing.
 */
export const QUEUED_MARKER = '[queued]';
/** `[fail-from-image]`: like `[fail]`, but only for a prediction given a start `image` (a 10 s Wan clip's second segment). */
export const FAIL_FROM_IMAGE_MARKER = '[fail-from-image]';
/** `[stuck-from-image]`: like `[stuck]`, but only for a prediction given a start `image`. */
export const STUCK_FROM_IMAGE_MARKER = '[stuck-from-image]';
/** `[truncated]`: the prediction succeeds, but each output file is cut to its first half (a video decodes part way, then ends). */
export const TRUNCATED_MARKER = '[truncated]';
/** `[garbage]`: each output file is 300 KB of random bytes, served with the type the model promises. */
export const GARBAGE_MARKER = '[garbage]';
/** `[html]`: each output URL answers 200 with an HTML error page (a proxy's or CDN's) instead of the file. */
export const HTML_MARKER = '[html]';
/** `[stall]`: each output URL sends its headers (with the full length) and the first 1 KB, then nothing, holding the connection. */
export const STALL_MARKER = '[stall]';
/**
 * All failure-injection markers, matched case-insensitively anywhere in `input.prompt`; besides them `[fail-seed-N]`
 * acts as `[fail]` on the prediction whose `seed` is N only (validation.ts).
 */
export const SIM_MARKERS = {
  fail: FAIL_MARKER,
  nsfw: NSFW_MARKER,
  reject: REJECT_MARKER,
  slow: SLOW_MARKER,
  noWebhook: NO_WEBHOOK_MARKER,
  hang: HANG_MARKER,
  busy: BUSY_MARKER,
  busyBriefly: BUSY_BRIEFLY_MARKER,
  down: DOWN_MARKER,
  lost: LOST_MARKER,
  early: EARLY_MARKER,
  dup: DUP_MARKER,
  abort: ABORT_MARKER,
  stuck: STUCK_MARKER,
  queued: QUEUED_MARKER,
  failFromImage: FAIL_FROM_IMAGE_MARKER,
  stuckFromImage: STUCK_FROM_IMAGE_MARKER,
  truncated: TRUNCATED_MARKER,
  garbage: GARBAGE_MARKER,
  html: HTML_MARKER,
  stall: STALL_MARKER,
} as const;

/**
 * A failed prediction's `error` is the model's own message; "Prediction failed:" is what the client's run() puts in
 * front of it, so it is not part of the error itself.
 */
export const FAIL_ERROR = 'RuntimeError: simulated model error';
export const NSFW_ERROR = 'NSFW content detected. Try running it again, or try a different prompt.';

export type PredictionStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';
export type WebhookEvent = 'start' | 'output' | 'logs' | 'completed';
export const WEBHOOK_EVENTS: readonly WebhookEvent[] = ['start', 'output', 'logs', 'completed'];
/** One of SIM_MARKERS' keys. */
export type SimMarker = keyof typeof SIM_MARKERS;

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
  /** The webhook URL and events the prediction was created with (Replicate returns them too). */
  webhook?: string;
  webhook_events_filter?: WebhookEvent[];
}

export interface ReplicateSimOptions {
  host?: string;
  port?: number;
  apiToken: string;
  webhookSecret: string;
  imageMs?: number;
  videoMs?: number;
  /** Each run takes up to this much longer, drawn uniformly per prediction (default 0: exact run times). */
  jitterMs?: number;
  /** The ffmpeg binary videos are encoded with (default: @ffmpeg-installer's). */
  ffmpegPath?: string;
  outputTtlMs?: number;
  publicBaseUrl?: string;
  fetchImpl?: typeof fetch;
  /**
   * Where predictions and outputs are kept across restarts (Replicate does not forget them): unfinished ones
   * resume where they were. Without it, state lives in memory only.
   */
  dataDir?: string;
  /** Says what went wrong that no caller is told (a saved prediction that cannot be read). */
  log?: (line: string) => void;
  /** How long a `[hang]` create call is held (default 60 s: past any function's timeout). */
  hangMs?: number;
  /** How many copies of each delivery a `[dup]` prediction sends at once (default 5). */
  dupCopies?: number;
  /** The account's API rate limits (default: Replicate's published ones, contract/capacity.ts). */
  rateLimits?: { createsPerMinute: number; otherRequestsPerMinute: number };
}

export interface ReplicateSim {
  url: string;
  close(): Promise<void>;
  /** test hooks */
  predictions(): SimPrediction[];
  /** The authenticated API calls received (the last 10,000), as Replicate's rate limits count them; not Replicate's. */
  calls(): SimCall[];
  setTimings(t: { imageMs?: number; videoMs?: number; outputTtlMs?: number; hangMs?: number; jitterMs?: number }): void;
}

/** One API call the simulator received: when (epoch ms), what, and how it was answered. */
export interface SimCall {
  at: number;
  method: string;
  /** The API path without its `/v1`. */
  path: string;
  kind: 'create' | 'other';
  status: number;
  /** The call's body's `input.prompt`, for a create whose body was read (not one the account's limits refused first). */
  prompt?: string;
}

export interface OutputFile {
  data: Buffer;
  type: string;
}

export type JobOutcome =
  | { ok: true; output: string[] | string; files: Map<string, OutputFile>; note: string }
  | { ok: false; error: string };

/** What the simulator keeps for one prediction: the API's view (p) and the run behind it. */
export interface Rec {
  p: SimPrediction;
  model: SimModel;
  input: Record<string, unknown>;
  seed: number;
  createdMs: number;
  startedMs?: number;
  completedMs?: number;
  totalMs: number;
  markers: Set<SimMarker>;
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
