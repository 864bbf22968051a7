import { Messages } from '../../contract/errors';
import { Unauthorized } from '../domain/errors';
import type { ModelWebhooks } from '../ports/model-provider';
import type { WebhookDelivery, WebhookInbox } from '../ports/webhooks';
import { applyProviderUpdate, type ApplyUpdateDeps } from './steps/apply-provider-update';

export interface ApplyGenerationWebhookDeps extends ApplyUpdateDeps {
  webhooks: () => Promise<ModelWebhooks>;
  inbox: WebhookInbox;
}

export type GenerationWebhookOutcome = { ok: true; duplicate?: true };

/**
 * POST /api/webhooks/replicate: the provider's adapter verifies and parses the delivery; its prediction is applied
 * to the job named in the webhook URL, once per delivery id (a redelivery changes nothing).
 */
export async function applyGenerationWebhook(deps: ApplyGenerationWebhookDeps, delivery: WebhookDelivery): Promise<GenerationWebhookOutcome> {
  const event = await (await deps.webhooks()).parse(delivery);
  if (!event) throw new Unauthorized(Messages.invalidWebhookSignature);
  if (await deps.inbox.seen(event.eventId)) return { ok: true, duplicate: true };

  if (event.jobId && event.prediction) {
    const job = await deps.jobs.get(event.jobId);
    // The prediction must be the job's own.
    if (job && job.providerId && job.providerId === event.prediction.id) await applyProviderUpdate(deps, job, event.prediction);
  }
  await deps.inbox.record(event.eventId, event.jobId ? { jobId: event.jobId } : {});
  return { ok: true };
}
