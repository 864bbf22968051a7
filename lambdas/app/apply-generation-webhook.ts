import { Messages } from '../../contract/errors';
import { Unauthorized } from '../domain/errors';
import type { ModelWebhooks } from '../ports/model-provider';
import type { DeliveryClaims, WebhookDelivery } from '../ports/webhooks';
import { applyProviderUpdate, type ApplyUpdateDeps } from './steps/apply-provider-update';

export interface ApplyGenerationWebhookDeps extends ApplyUpdateDeps {
  webhooks: () => Promise<ModelWebhooks>;
  inbox: DeliveryClaims;
}

export type GenerationWebhookOutcome = { ok: true; duplicate?: true };

/**
 * POST /api/webhooks/replicate, answered fast and once: the provider's adapter verifies and parses the delivery;
 * the first of any number of copies of one delivery id claims it (one conditional write); its prediction is
 * recorded on the job named in the webhook URL, even when the job's provider id is not recorded yet (the
 * prediction takes it). No download happens here: a success records the output and the table's stream copies it.
 * If recording fails, the claim is given back so the provider's retry is handled.
 */
export async function applyGenerationWebhook(deps: ApplyGenerationWebhookDeps, delivery: WebhookDelivery): Promise<GenerationWebhookOutcome> {
  const event = await (await deps.webhooks()).parse(delivery);
  if (!event) throw new Unauthorized(Messages.invalidWebhookSignature);
  if (!(await deps.inbox.claim(event.eventId, event.jobId ? { jobId: event.jobId } : {}))) return { ok: true, duplicate: true };
  try {
    if (event.jobId && event.prediction) {
      const job = await deps.jobs.get(event.jobId);
      if (job) await applyProviderUpdate(deps, job, event.prediction);
    }
  } catch (err) {
    await deps.inbox.release(event.eventId).catch(() => undefined);
    throw err;
  }
  return { ok: true };
}
