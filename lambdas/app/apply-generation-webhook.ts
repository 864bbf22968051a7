import type { ModelWebhooks } from '../ports/model-provider';
import type { WebhookDelivery, WebhookInbox } from '../ports/webhooks';
import { applyProviderUpdate, type ApplyUpdateDeps } from './steps/apply-provider-update';
import { receiveWebhook } from './steps/receive-webhook';

export interface ApplyGenerationWebhookDeps extends ApplyUpdateDeps {
  webhooks: () => Promise<ModelWebhooks>;
  inbox: WebhookInbox;
}

export type GenerationWebhookOutcome = { ok: true; duplicate?: true };

/**
 * POST /api/webhooks/replicate, answered fast and once (steps/receive-webhook: verify, claim, apply, release on
 * failure): the prediction is recorded on the job named in the webhook URL, even when the job's provider id is not
 * recorded yet (the prediction takes it). No download happens here: a success records the output and the table's
 * stream copies it.
 */
export async function applyGenerationWebhook(deps: ApplyGenerationWebhookDeps, delivery: WebhookDelivery): Promise<GenerationWebhookOutcome> {
  const received = await receiveWebhook(deps, delivery, {
    claimInfo: (event): Record<string, string> => (event.jobId ? { jobId: event.jobId } : {}),
    apply: async (event) => {
      if (!event.jobId || !event.prediction) return;
      const job = await deps.jobs.get(event.jobId);
      if (job) await applyProviderUpdate(deps, job, event.prediction, event.part);
    },
  });
  return received.duplicate ? { ok: true, duplicate: true } : { ok: true };
}
