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
 * Records what the provider says about a job, quickly (no download here): a success records the output URL on
 * the job, and the table's stream runs the copy (save-job-output); a failure, cancel or abort refunds in one
 * transaction; progress moves the status. Safe to call any number of times from webhooks, polls and the
 * reconciler in any order: the job store makes each terminal transition (and its refund) happen once.
 *
 * A job whose provider id is not yet recorded (a webhook that came before the create call returned) takes the
 * prediction's id here; a prediction that is not the job's own is ignored.
 */
export async function applyProviderUpdate(deps: ApplyUpdateDeps, job: Job, p: ProviderPrediction): Promise<void> {
  if (isTerminal(job.status)) return;
  if (job.providerId && job.providerId !== p.id) return;
  // A clip's earlier segment (a late or repeated delivery): that segment is saved already.
  if (job.pastProviderIds?.includes(p.id)) return;
  switch (p.status) {
    case 'succeeded': {
      const url = p.output[0];
      if (!url || p.dataRemoved) {
        await deps.jobs.failAndRefund(job, 'failed', refundedError(url ? Messages.resultRemoved : reasonOfProviderError(p.error, job.kind), job.cost));
        return;
      }
      if (!job.outputUrl) await deps.jobs.recordOutput(job.id, p.id, p.output, deps.now().getTime());
      return;
    }
    case 'failed':
    case 'aborted':
      await deps.jobs.failAndRefund(job, 'failed', refundedError(reasonOfProviderError(p.error, job.kind), job.cost));
      return;
    case 'canceled':
      await deps.jobs.failAndRefund(job, 'canceled', refundedError(Messages.generationCanceled, job.cost));
      return;
    default:
      if (!job.providerId) await deps.jobs.markStarted(job.id, p.id, p.status);
      // Deliveries can arrive out of order: a late 'starting' never moves a job back.
      else if (p.status !== job.status && !job.outputUrl && !(p.status === 'starting' && job.status === 'processing')) await deps.jobs.markProgress(job.id, p.status);
  }
}
