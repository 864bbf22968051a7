import { Messages } from '../../../contract/errors';
import { reasonOfProviderError, refundedError } from '../../domain/job-messages';
import type { Job, JobStore } from '../../ports/jobs';
import { isTerminal } from '../../ports/jobs';
import type { ProviderPrediction } from '../../ports/model-provider';

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
export async function applyProviderUpdate(deps: ApplyUpdateDeps, job: Job, p: ProviderPrediction): Promise<UpdateOutcome> {
  if (isTerminal(job.status)) return 'unchanged';
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
