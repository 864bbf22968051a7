/**
 * Asking the provider for a charged job's prediction (its first, or a clip's next segment), refunding at once if it
 * refuses or cannot be reached.
 */
import { Messages } from '../../../contract/errors';
import { refundedError } from '../../domain/job-messages';
import { isTerminal, type BatchPart, type Job } from '../../ports/jobs';
import { isProviderTerminal, ProviderBusy, ProviderRefused, type ModelProvider, type ProviderPrediction } from '../../ports/model-provider';
import { applyProviderUpdate, type ApplyUpdateDeps } from './apply-provider-update';
import { cancelAfterSeconds } from './job-deadline';
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
const unanswered = (e: unknown): boolean => e instanceof Error && (e.name === 'TimeoutError' || e.name === 'AbortError');

export async function submitPrediction(deps: SubmitDeps, job: Job, req: PredictionRequest, options: SubmitOptions = {}): Promise<Submitted> {
  // Every prediction is asked to stop by our own deadline for the job's run (its Cancel-After): one that has not
  // started by then ends aborted and unbilled, and its webhook refunds the job.
  const cancelAfter = cancelAfterSeconds(job, deps.now());
  if (cancelAfter === undefined) {
    // Past the deadline already (it waited in our queue that long): nothing is asked for, the job is refunded.
    const refunded = await deps.jobs.failAndRefund(job, 'failed', refundedError(Messages.generationBusy, job.cost));
    return { ok: false, refunded, error: new ProviderBusy('the job waited past its deadline'), reason: Messages.generationBusy };
  }
  if (job.batch) return submitBatch(deps, job, job.batch, req, options, cancelAfter);
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
      cancelAfterSeconds: cancelAfter,
    });
  } catch (error) {
    // Refused (400/422) or rate limited (429): nothing was created. Anything else (a timeout, a 5xx, a broken
    // connection) may come after the provider accepted it: whatever it runs for this job is cancelled first.
    const known = error instanceof ProviderRefused || error instanceof ProviderBusy;
    // Unanswered, but its webhook came first and recorded the prediction on the job: it runs, nothing is undone.
    if (unanswered(error) && (await deps.jobs.get(job.id))?.providerId) return { ok: true };
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

/**
 * A batch: one prediction per part, each with the request's input and its part's seed, created side by side (each
 * with `Prefer: wait` for a fast model, so their results come in the answers). All or nothing: when any create is
 * refused, busy or unanswered, whatever was made for the job is cancelled; the job is held for our queue when nothing
 * runs for it and only busyness or silence stopped it, and otherwise failed and refunded whole.
 */
async function submitBatch(deps: SubmitDeps, job: Job, batch: readonly BatchPart[], req: PredictionRequest, options: SubmitOptions, cancelAfter: number): Promise<Submitted> {
  let provider: ModelProvider;
  try {
    provider = await deps.provider();
  } catch (error) {
    const refunded = await deps.jobs.failAndRefund(job, 'failed', refundedError(Messages.generationUnavailable, job.cost));
    return { ok: false, refunded, error, reason: Messages.generationUnavailable };
  }
  const created = await Promise.allSettled(
    batch.map((b, part) =>
      provider.create({
        model: req.model,
        version: req.version,
        input: { ...req.input, seed: b.seed },
        webhookUrl: webhookUrlFor(deps.webhookUrl, job, part),
        ...(req.waitSeconds ? { waitSeconds: req.waitSeconds } : {}),
        cancelAfterSeconds: cancelAfter,
      }),
    ),
  );
  const answered = created.map((r) => (r.status === 'fulfilled' ? r.value : undefined));
  const made = answered.filter((p): p is ProviderPrediction => p !== undefined);
  const errors = created.flatMap((r) => (r.status === 'rejected' ? [r.reason as unknown] : []));
  // A create that went unanswered may have made its prediction, and its webhook may have come first and recorded it on
  // its part (the prediction id, perhaps its outcome): when every unanswered part is recorded so, the batch runs whole
  // and nothing is cancelled or refunded (its images were made, or are being made, and Replicate bills them).
  const recorded = errors.length && errors.every(unanswered) ? (await deps.jobs.get(job.id))?.batch : undefined;
  const whole = recorded !== undefined && answered.every((p, part) => p !== undefined || recorded[part]?.providerId !== undefined);
  if (errors.length && !whole) {
    await Promise.allSettled(made.map((p) => provider.cancel(p.id)));
    // An unanswered create may still have made its prediction: it is found by its webhook URL and cancelled too.
    const known = errors.every((e) => e instanceof ProviderRefused || e instanceof ProviderBusy);
    const cancelled = known || (await cancelPredictionsOf(provider, job));
    const error = errors.find((e) => e instanceof ProviderRefused) ?? errors[0];
    if (options.hold && !made.length && cancelled && errors.every((e) => e instanceof ProviderBusy || unanswered(e))) return { ok: false, held: true, error };
    const reason = error instanceof ProviderRefused ? error.message : error instanceof ProviderBusy ? Messages.generationBusy : Messages.generationUnavailable;
    const refunded = await deps.jobs.failAndRefund(job, 'failed', refundedError(reason, job.cost));
    return { ok: false, refunded, error, reason };
  }
  const started: Job = { ...job, batch: batch.map((b, part) => ({ ...b, providerId: answered[part]?.id ?? recorded?.[part]?.providerId })) };
  for (const [part, prediction] of answered.entries()) {
    if (!prediction) continue;
    const marked = await deps.jobs.markPartStarted(job.id, part, prediction.id, prediction.status === 'starting' ? 'starting' : 'processing');
    // Ended while the create calls were on their way (cancelled, or failed by a part whose webhook came first): stop
    // every part, whose images would go unused.
    const now = marked ? undefined : await deps.jobs.get(job.id);
    if (now && isTerminal(now.status)) {
      await Promise.allSettled(made.map((p) => provider.cancel(p.id)));
      return { ok: true };
    }
    if (isProviderTerminal(prediction.status)) await applyProviderUpdate(deps, started, prediction, part);
  }
  return { ok: true };
}
