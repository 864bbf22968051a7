/**
 * Asking the provider for a charged job's prediction (its first, or a clip's next segment), refunding at once if it
 * refuses or cannot be reached.
 */
import { maxRunMsOf } from '../../../contract/catalog';
import { Messages } from '../../../contract/errors';
import { refundedError } from '../../domain/job-messages';
import type { Job } from '../../ports/jobs';
import { isProviderTerminal, ProviderBusy, ProviderRefused, type ModelProvider, type ProviderPrediction } from '../../ports/model-provider';
import { applyProviderUpdate, type ApplyUpdateDeps } from './apply-provider-update';
import { cancelPredictionsOf, webhookUrlFor } from './job-predictions';

export interface SubmitDeps extends ApplyUpdateDeps {
  provider: () => Promise<ModelProvider>;
  /** The URL Replicate calls back; the job id (and a later segment's number) are added as query parameters. */
  webhookUrl: string;
}

export interface PredictionRequest {
  model: string;
  version?: string;
  input: Record<string, unknown>;
  /** `Prefer: wait` for this many seconds: a fast model's result comes in the create call's answer. */
  waitSeconds?: number;
}

/**
 * started; or not, with why (refunded: false when the job had already ended, e.g. its webhook came first and settled
 * it); or, asked to `hold`, held: the provider was busy or did not answer, nothing runs for the job and it stays charged.
 */
export type Submitted = { ok: true } | { ok: false; refunded: boolean; error: unknown; reason: string } | { ok: false; held: true; error: unknown };

export interface SubmitOptions {
  /** A 429 or no answer leaves the job charged (for our own queue) instead of refunding it. */
  hold?: boolean;
}

/** The call ran out of time (the adapter's deadline aborts it): the provider is slow, not refusing. */
const unanswered = (e: unknown) => e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');

export async function submitPrediction(deps: SubmitDeps, job: Job, req: PredictionRequest, options: SubmitOptions = {}): Promise<Submitted> {
  let prediction: ProviderPrediction;
  let provider: ModelProvider | undefined;
  try {
    provider = await deps.provider();
    prediction = await provider.create({
      model: req.model,
      version: req.version,
      input: req.input,
      webhookUrl: webhookUrlFor(deps.webhookUrl, job),
      ...(req.waitSeconds ? { waitSeconds: req.waitSeconds } : {}),
      cancelAfterSeconds: maxRunMsOf(req.model) / 1000,
    });
  } catch (error) {
    // Refused (400/422) or rate limited (429): nothing was created. Anything else (a timeout, a 5xx, a broken
    // connection) may come after the provider accepted it: whatever it runs for this job is cancelled first.
    const known = error instanceof ProviderRefused || error instanceof ProviderBusy;
    const cancelled = !known && provider ? await cancelPredictionsOf(provider, job) : true;
    // Held when the provider is busy (429: nothing made) or did not answer in time (what it made was found and
    // cancelled), never after a refusal or an error answer: those fail now, as before.
    if (options.hold && (error instanceof ProviderBusy || unanswered(error)) && cancelled) return { ok: false, held: true, error };
    const reason = error instanceof ProviderRefused ? error.message : error instanceof ProviderBusy ? Messages.generationBusy : Messages.generationUnavailable;
    const refunded = await deps.jobs.failAndRefund(job, 'failed', refundedError(reason, job.cost));
    return { ok: false, refunded, error, reason };
  }
  const recorded = await deps.jobs.markStarted(job.id, prediction.id, prediction.status === 'starting' ? 'starting' : 'processing');
  // Canceled while the create call was on its way (cancel-job refunded it, knowing no prediction): stop this one.
  if (!recorded && (await deps.jobs.get(job.id))?.status === 'canceled') {
    await provider.cancel(prediction.id).catch(() => undefined);
    return { ok: true };
  }
  if (isProviderTerminal(prediction.status)) {
    await applyProviderUpdate(deps, { ...job, providerId: prediction.id }, prediction);
  }
  return { ok: true };
}
