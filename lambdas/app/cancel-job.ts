/**
 * POST /api/jobs/{id}/cancel: the owner stops one of their running jobs, at the provider too. While the provider has
 * not begun it (`starting`, or no prediction yet) the credits come back in full; once it runs the provider bills
 * it, so the job ends canceled without a refund, and only when the caller agreed (`acceptCharge`; else 409 with the
 * confirmation's text).
 *
 * Our terminal write comes first and the provider's cancel after: the canceled webhook that follows then finds the
 * job ended and changes nothing (the webhook path refunds a canceled prediction only for a job still open). The
 * job's condition (open, no output recorded) makes a cancel racing the provider's completion settle once: either
 * the output was recorded first (409: it finished, and is saved) or the cancel ended it (the output is ignored).
 * The prediction acted on is the job's current one (its `providerId`), whatever step of the job it is.
 */
import { Messages } from '../../contract/errors';
import type { CancelJobResponse } from '../../contract/schemas';
import { Conflict, NotFound } from '../domain/errors';
import { refundedError } from '../domain/job-messages';
import type { JobStatusReader } from '../ports/job-status';
import { isTerminal, runningPredictions, type Job, type JobStore } from '../ports/jobs';
import { isProviderTerminal, PredictionNotFound, type ModelProvider } from '../ports/model-provider';
import { applyProviderUpdate } from './steps/apply-provider-update';

export interface CancelJobDeps {
  jobs: JobStore;
  status: JobStatusReader;
  provider: () => Promise<ModelProvider>;
  now: () => Date;
  log: (message: string, details: Record<string, unknown>) => void;
}

export async function cancelJob(deps: CancelJobDeps, owner: string, jobId: string, acceptCharge = false): Promise<CancelJobResponse> {
  const job = await deps.jobs.get(jobId);
  if (!job || job.owner !== owner) throw new NotFound(Messages.jobNotFound);
  if (isTerminal(job.status)) return ended(deps, job);
  if (job.outputUrl) throw new Conflict(Messages.jobAlreadyEnded);

  const provider = await deps.provider();
  // A batch part whose output is in ran, and was billed.
  let started = Boolean(job.batch?.some((b) => b.outputUrl));
  const running = runningPredictions(job);
  for (const id of running) {
    try {
      const p = await provider.get(id);
      if (isProviderTerminal(p.status)) {
        // It ended at the provider before we heard: settle it as the webhook would; a job that ended so says how.
        await applyProviderUpdate(deps, job, p);
        const now = (await deps.jobs.get(jobId)) ?? job;
        if (isTerminal(now.status) || now.outputUrl) return ended(deps, now);
        started ||= p.status === 'succeeded';
        continue;
      }
      started ||= p.status !== 'starting';
    } catch (err) {
      // A prediction the provider does not know never ran: nothing was billed.
      if (!(err instanceof PredictionNotFound)) throw err;
    }
  }
  if (started && !acceptCharge) throw new Conflict(Messages.cancelSpendsCredits(job.cost));

  const error = started ? Messages.canceledNoRefund(job.cost) : refundedError(Messages.generationCanceled, job.cost);
  if (!(await deps.jobs.cancel(job, !started, error))) {
    // Ended meanwhile (its output was recorded, or a webhook or the reconciler settled it).
    return ended(deps, (await deps.jobs.get(jobId)) ?? job);
  }
  // Without a prediction id the create call is still on its way: start-job cancels what it made when it sees this.
  for (const providerId of running) {
    await provider.cancel(providerId).catch((err: unknown) => {
      // Our side is settled either way; an output it still makes is ignored (the job is no longer open).
      deps.log('cancel-job: the provider did not cancel', { jobId, providerId, error: (err as Error).message });
    });
  }
  return answer(deps, jobId, owner, started ? 0 : job.cost, error);
}

/**
 * A job that already ended: a canceled one answers as the cancel did (a repeat changes nothing), others 409. A job
 * still open here (its output recorded: it succeeded and is being saved) is finished too, in the user's words; one
 * open without an output was not ended by anything, which is our error and never "already finished".
 */
async function ended(deps: CancelJobDeps, job: Job): Promise<CancelJobResponse> {
  if (!isTerminal(job.status) && !job.outputUrl) throw new Error(`Job ${job.id} is still ${job.status} after its cancel was refused`);
  if (job.status !== 'canceled') throw new Conflict(job.status === 'failed' ? (job.error ?? Messages.jobAlreadyEnded) : Messages.jobAlreadyEnded);
  return answer(deps, job.id, job.owner, job.refunded ? job.cost : 0, job.error ?? Messages.generationCanceled);
}

async function answer(deps: CancelJobDeps, jobId: string, owner: string, refunded: number, error: string): Promise<CancelJobResponse> {
  const { balance } = await deps.status.read(jobId, owner);
  return { status: 'canceled', refunded, credits: balance, error };
}
