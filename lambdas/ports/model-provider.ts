import type { WebhookVerifier } from './webhooks';

/** Replicate's statuses; `aborted`: stopped before it started (a deadline passed), nothing ran. */
export type ProviderStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled' | 'aborted';
const PROVIDER_TERMINAL: readonly ProviderStatus[] = ['succeeded', 'failed', 'canceled', 'aborted'];
export const isProviderTerminal = (s: ProviderStatus) => PROVIDER_TERMINAL.includes(s);

export interface ProviderPrediction {
  id: string;
  status: ProviderStatus;
  /** The output file URLs (SDXL returns a list, video models one URL). */
  output: string[];
  /** The provider's error as text (an error object is rendered, never "[object Object]"). */
  error?: string;
  /** The provider deleted the prediction's output (Replicate does after about an hour). */
  dataRemoved?: boolean;
  /** Seconds the model ran (Replicate's `metrics.predict_time`), once it ended: 0 or absent for one that never started. */
  predictTime?: number;
}

/** A prediction as a list shows it: enough to find the one a lost create call made. */
export interface ListedPrediction {
  id: string;
  status: ProviderStatus;
  createdAt: string;
  /** The webhook URL it was created with (ours names the job). */
  webhook?: string;
}

export interface CreatePrediction {
  /** owner/name of the model. */
  model: string;
  /** A version id, for community models such as SDXL. */
  version?: string;
  input: Record<string, unknown>;
  webhookUrl: string;
  /**
   * Wait up to this many seconds for the prediction to end before answering (`Prefer: wait`): the answer then carries
   * the output, and the webhook is only the fallback.
   */
  waitSeconds?: number;
  /** The provider stops the prediction after this many seconds (`Cancel-After`), counted from its creation. */
  cancelAfterSeconds?: number;
}

/** A provider refused the request (e.g. input validation): the user can fix it, nothing ran. */
export class ProviderRefused extends Error {}
/** The provider is rate limiting us (429 after the adapter's backoff, replicate-provider.ts): nothing was created. */
export class ProviderBusy extends Error {}
/** The provider does not know this prediction (404). */
export class PredictionNotFound extends Error {}

/**
 * Any other error of create() (a timeout, a 5xx, a broken connection) leaves it unknown whether the provider
 * accepted the prediction: the caller looks for it (listSince) and cancels it.
 */
export interface ModelProvider {
  create(req: CreatePrediction): Promise<ProviderPrediction>;
  /** Throws PredictionNotFound when the provider does not know the id. */
  get(id: string): Promise<ProviderPrediction>;
  cancel(id: string): Promise<void>;
  /** The predictions created since `since` (newest first). */
  listSince(since: Date): Promise<ListedPrediction[]>;
}

/** A genuine webhook delivery from the provider, parsed. */
export interface ProviderWebhook {
  /** The delivery's id: the same on every retry of one delivery. */
  eventId: string;
  /** Our job, when the delivery names it (we put it in the webhook URL). */
  jobId?: string;
  /** The job's batch part the prediction makes, when the URL names one (a batch: one prediction per image). */
  part?: number;
  /** The prediction it reports, when the body is one. */
  prediction?: ProviderPrediction;
}

/** The model provider's webhooks: the delivery parsed, or undefined when its signature is not genuine (or too old). */
export type ModelWebhooks = WebhookVerifier<ProviderWebhook>;
