import type { WebhookDelivery } from './webhooks';

export type ProviderStatus = 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';

export interface ProviderPrediction {
  id: string;
  status: ProviderStatus;
  /** The output file URLs (SDXL returns a list, video models one URL). */
  output: string[];
  error?: string;
}

export interface CreatePrediction {
  /** owner/name of the model. */
  model: string;
  /** A version id, for community models such as SDXL. */
  version?: string;
  input: Record<string, unknown>;
  webhookUrl: string;
}

/** A provider refused the request (e.g. input validation): the user can fix it, nothing ran. */
export class ProviderRefused extends Error {}

export interface ModelProvider {
  create(req: CreatePrediction): Promise<ProviderPrediction>;
  get(id: string): Promise<ProviderPrediction>;
  cancel(id: string): Promise<void>;
}

/** A genuine webhook delivery from the provider, parsed. */
export interface ProviderWebhook {
  /** The delivery's id: the same on every retry of one delivery. */
  eventId: string;
  /** Our job, when the delivery names it (we put it in the webhook URL). */
  jobId?: string;
  /** The prediction it reports, when the body is one. */
  prediction?: ProviderPrediction;
}

export interface ModelWebhooks {
  /** The delivery parsed, or undefined when its signature is not genuine (or too old). */
  parse(delivery: WebhookDelivery): Promise<ProviderWebhook | undefined>;
}
