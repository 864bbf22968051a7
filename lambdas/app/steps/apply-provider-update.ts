import { Messages } from '../../../contract/errors';
import { reasonOfProviderError, refundedError } from '../../domain/job-messages';
import type { BatchPart, Job, JobStore } from '../../ports/jobs';
import { isTerminal } from '../../ports/jobs';
import { isProviderTerminal, type ProviderPrediction } from '../../ports/model-provider';
import { predictionCents } from '../../domain/provider-cost';

export interface ApplyUpdateDeps {
  jobs: JobStore;
  now: () => Date;
}

/**
 * What an update did: recorded the output, refunded the job (written now), moved its progress, or nothing (the job had
 * already ended or moved on, or the prediction is not its current one).
 */
export type UpdateOutcome = 'recorded' | 'refunded' | 'progress' | 'unchanged';

/**
 * Records what the provider says about a job, quickly (no download here): a success records the output URL on
 * the job, and the table's stream runs the copy (save-job-output); a failure, cancel or abort refunds in one
 * transaction; progress moves the status. Safe to call any number of times from webhooks, polls and the
 * reconciler in any order: the job store makes each terminal transition (and its refund) happen once.
 *
 * A job whose provider id is not yet recorded (a webhook that came before the create call returned) takes the
 * prediction's id here; a prediction that is not the job's own is ignored.
 */
export async function applyProviderUpdate(deps: ApplyUpdateDeps, job: Job, p: ProviderPrediction, part?: number): Promise<UpdateOutcome> {
  await noteCost(deps, job, p);
  if (isTerminal(job.status)) return 'unchanged';
  if (job.batch) return applyToPart(deps, job, job.batch, p, part);
  if (job.providerId && job.providerId !== p.id) return 'unchanged';
  // A clip's earlier segment (a late or repeated delivery): that segment is saved already.
  if (job.pastProviderIds?.includes(p.id)) return 'unchanged';
  // A refund that cannot land throws (RefundNotLanded): never reported as refunded.
  const refund = async (status: 'failed' | 'canceled', error: string): Promise<UpdateOutcome> =>
    (await deps.jobs.failAndRefund(job, status, error)) ? 'refunded' : 'unchanged';
  switch (p.status) {
    case 'succeeded': {
      const url = p.output[0];
      if (!url || p.dataRemoved) return refund('failed', refundedError(url ? Messages.resultRemoved : reasonOfProviderError(p.error, job.kind), job.cost));
      if (job.outputUrl) return 'unchanged';
      return (await deps.jobs.recordOutput(job.id, p.id, p.output, deps.now().getTime())) ? 'recorded' : 'unchanged';
    }
    case 'failed':
    case 'aborted':
      return refund('failed', refundedError(reasonOfProviderError(p.error, job.kind), job.cost));
    case 'canceled':
      return refund('canceled', refundedError(Messages.generationCanceled, job.cost));
    default:
      if (!job.providerId) await deps.jobs.markStarted(job.id, p.id, p.status);
      // Deliveries can arrive out of order: a late 'starting' never moves a job back.
      else if (p.status !== job.status && !job.outputUrl && !(p.status === 'starting' && job.status === 'processing')) await deps.jobs.markProgress(job.id, p.status);
      return 'progress';
  }
}

/**
 * A batch's prediction (`part`: the one its webhook URL names, for a prediction not recorded yet): its output, or why
 * it made none (failed, aborted, canceled at the provider, output lost), is recorded on its part, once. A failed part
 * ends nothing: the others go on (the provider bills them). Once every part has ended the job's outputs are the
 * images that succeeded, in part order (the stream saves them as one job, and its success refunds the failed parts'
 * price: save-job-output); a batch none of whose parts succeeded fails with its whole refund, once.
 */
async function applyToPart(deps: ApplyUpdateDeps, job: Job, batch: readonly BatchPart[], p: ProviderPrediction, hint?: number): Promise<UpdateOutcome> {
  const known = batch.findIndex((b) => b.providerId === p.id);
  const part = known >= 0 ? known : hint !== undefined && batch[hint] && !batch[hint].providerId ? hint : -1;
  if (part < 0) return 'unchanged';
  const partFailed = async (why: string): Promise<UpdateOutcome> => {
    if (batch[part]!.outputUrl || batch[part]!.failed) return 'unchanged';
    return ended(deps, job, await deps.jobs.recordPartFailure(job.id, part, p.id, why));
  };
  switch (p.status) {
    case 'succeeded': {
      const url = p.output[0];
      if (!url || p.dataRemoved) return partFailed(url ? Messages.resultRemoved : reasonOfProviderError(p.error, job.kind));
      if (batch[part]!.outputUrl) return 'unchanged';
      return ended(deps, job, await deps.jobs.recordPartOutput(job.id, part, p.id, url));
    }
    case 'failed':
    case 'aborted':
      return partFailed(reasonOfProviderError(p.error, job.kind));
    case 'canceled':
      return partFailed(Messages.generationCanceled);
    default:
      if (!batch[part]!.providerId) await deps.jobs.markPartStarted(job.id, part, p.id, p.status);
      else if (p.status === 'processing' && job.status !== 'processing' && !job.outputUrl) await deps.jobs.markProgress(job.id, p.status);
      return 'progress';
  }
}

/**
 * A batch every part of which has ended, still open: its last recorder stopped between the part and the job (a kill,
 * a timeout). The reconciler finishes it as that recorder would have: the images that succeeded, or the whole refund.
 */
export async function finishEndedBatch(deps: ApplyUpdateDeps, job: Job): Promise<UpdateOutcome> {
  return ended(deps, job, job);
}

/** After a part's outcome was recorded (`after`: the job as it is now): once every part has ended, the job's outcome. */
async function ended(deps: ApplyUpdateDeps, read: Job, after: Job | undefined): Promise<UpdateOutcome> {
  const parts = after?.batch;
  if (!after || !parts) return 'unchanged';
  if (!parts.every((b) => b.outputUrl || b.failed)) return 'progress';
  const urls = parts.flatMap((b) => (b.outputUrl ? [b.outputUrl] : []));
  if (urls.length) return (await deps.jobs.recordOutput(after.id, undefined, urls, deps.now().getTime())) ? 'recorded' : 'unchanged';
  // Nothing to deliver: the whole refund, with the first part's reason; canceled, as a single prediction's job is, when
  // every part was canceled at the provider. A refund that cannot land throws (RefundNotLanded).
  const status = parts.every((b) => b.failed === Messages.generationCanceled) ? 'canceled' : 'failed';
  return (await deps.jobs.failAndRefund(read, status, refundedError(parts.find((b) => b.failed)!.failed!, read.cost))) ? 'refunded' : 'unchanged';
}

/**
 * An ended prediction's run time and cost go on its job, once (whatever the job's state: a refunded job's prediction
 * that Replicate billed still cost us). Only a prediction of this job's: its own, a batch part's, or a past segment's.
 */
async function noteCost(deps: ApplyUpdateDeps, job: Job, p: ProviderPrediction): Promise<void> {
  if (!isProviderTerminal(p.status) || p.predictTime === undefined) return;
  const ours = !job.providerId || job.providerId === p.id || job.pastProviderIds?.includes(p.id) || job.batch?.some((b) => !b.providerId || b.providerId === p.id);
  if (!ours || job.costed?.includes(p.id)) return;
  await deps.jobs.notePredictionCost(job, p.id, p.predictTime, predictionCents(job, p.predictTime));
}
