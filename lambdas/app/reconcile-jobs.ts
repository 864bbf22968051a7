/**
 * The safety net that ends every job, whether or not a browser is watching and whether or not a webhook came:
 * each open job (from the sparse open-jobs index, never a scan) is settled from the provider's own state.
 */
import { typicalMsOf } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { refundedError } from '../domain/job-messages';
import { runningPredictions, type BatchPart, type Job, type JobStore } from '../ports/jobs';
import { isProviderTerminal, PredictionNotFound, type ModelProvider } from '../ports/model-provider';
import { applyProviderUpdate, finishEndedBatch, type UpdateOutcome } from './steps/apply-provider-update';
import { jobDeadline, RUN_GRACE_MS } from './steps/job-deadline';
import { predictionsOf } from './steps/job-predictions';
import { drainQueue, QUEUE_MAX_WAIT_MS } from './steps/submit-or-queue';
import { saveJobOutput, type SaveJobOutputDeps } from './save-job-output';

export interface ReconcileLimits {
  /** A job with no prediction id this long after its charge lost its create call (bounded by the function's timeout). */
  unconfirmedAfterMs: number;
  /** A recorded output not saved this long after (the stream's copy keeps failing) is saved here. */
  saveAfterMs: number;
  /** Added to a model's maximum run time before a running prediction is stopped, or an unsaved output given up. */
  graceMs: number;
  /** A job in our own queue (the provider was busy) not submitted this long after it entered it is refunded. */
  queueMaxWaitMs: number;
  /**
   * Ask the provider about a running job only once it is past its model's typical run time: before that its webhook
   * settles it, and each question is one of Replicate's 3,000 non-create requests a minute.
   */
  askAfterTypical: boolean;
}

export const DEFAULT_LIMITS: ReconcileLimits = {
  unconfirmedAfterMs: 60_000,
  saveAfterMs: 120_000,
  graceMs: RUN_GRACE_MS,
  queueMaxWaitMs: QUEUE_MAX_WAIT_MS,
  askAfterTypical: true,
};

export interface ReconcileJobsDeps extends SaveJobOutputDeps {
  jobs: JobStore;
  limits: ReconcileLimits;
  /** Stop taking new jobs after this moment (the function's own deadline), leaving the rest to the next run. */
  deadline?: () => number;
}

export type Settlement = 'waiting' | 'progress' | 'recorded' | 'saved' | 'refunded' | 'skipped' | 'error' | 'submitted';

export interface ReconcileReport {
  open: number;
  settled: Partial<Record<Settlement, number>>;
}

const PAGE = 100;
/** Jobs reconciled at once (each is a few provider and table calls). */
const PARALLEL = 8;

export async function reconcileJobs(deps: ReconcileJobsDeps): Promise<ReconcileReport> {
  const report: ReconcileReport = { open: 0, settled: {} };
  const count = (o: Settlement, n = 1) => n && (report.settled[o] = (report.settled[o] ?? 0) + n);
  // Queued jobs (ours, waiting for the provider) are submitted together after the rest, fairly across users.
  const queued: Job[] = [];
  let cursor: string | undefined;
  do {
    const page = await deps.jobs.listOpen(PAGE, cursor);
    report.open += page.items.length;
    const running = page.items.filter((job) => (job.queued && !job.providerId ? (queued.push(job), false) : true));
    for (let i = 0; i < running.length; i += PARALLEL) {
      if (deps.deadline && Date.now() > deps.deadline()) return report;
      const outcomes = await Promise.all(running.slice(i, i + PARALLEL).map((job) => settleSafely(deps, job)));
      for (const o of outcomes) count(o);
    }
    cursor = page.nextCursor;
  } while (cursor);
  if (queued.length) {
    try {
      const drained = await drainQueue(deps, queued, deps.limits.queueMaxWaitMs, deps.deadline);
      count('submitted', drained.submitted);
      count('waiting', drained.waiting);
      count('refunded', drained.refunded);
    } catch (err) {
      deps.log('reconcile: queue not drained', { error: (err as Error).message });
      count('error');
    }
  }
  return report;
}

async function settleSafely(deps: ReconcileJobsDeps, job: Job): Promise<Settlement> {
  try {
    return await settle(deps, job);
  } catch (err) {
    // One job's trouble (the provider down, a copy failing) must not hold back the others: the next run retries it.
    deps.log('reconcile: job not settled', { jobId: job.id, error: (err as Error).message });
    return 'error';
  }
}

const refund = async (deps: ReconcileJobsDeps, job: Job, reason: string): Promise<Settlement> =>
  (await deps.jobs.failAndRefund(job, 'failed', refundedError(reason, job.cost))) ? 'refunded' : 'skipped';

async function settle(deps: ReconcileJobsDeps, job: Job): Promise<Settlement> {
  const now = deps.now().getTime();
  // A clip's later segment is timed from its own start.
  const age = now - (job.segmentAt ?? Date.parse(job.createdAt));
  // Running or saving, a job past its model's maximum time (and the grace) ends.
  const overdue = now > jobDeadline(job, deps.limits.graceMs);

  if (job.outputUrl) {
    // The stream saves it; only an overdue save is retried here, and one past the job's deadline fails and refunds.
    if (now - (job.outputAt ?? 0) < deps.limits.saveAfterMs && !overdue) return 'waiting';
    const saved = await saveJobOutput({ ...deps, graceMs: deps.limits.graceMs }, job.id);
    return saved === 'saved' ? 'saved' : saved === 'failed' ? 'refunded' : saved === 'continued' ? 'progress' : saved === 'deferred' ? 'waiting' : 'skipped';
  }

  const provider = await deps.provider();
  if (job.batch) return settleBatch(deps, job, job.batch, provider, age, overdue);
  if (!job.providerId) {
    if (age < deps.limits.unconfirmedAfterMs) return 'waiting';
    // The create call's answer was lost. A prediction it made and that already succeeded is kept; anything still
    // running is cancelled and the job refunded.
    const found = await predictionsOf(provider, job);
    for (const p of found.filter((f) => f.status === 'succeeded')) return reported(await applyProviderUpdate(deps, job, await provider.get(p.id)));
    await Promise.allSettled(found.filter((f) => !isProviderTerminal(f.status)).map((f) => provider.cancel(f.id)));
    return refund(deps, job, Messages.generationNotConfirmed);
  }

  if (deps.limits.askAfterTypical && age < typicalMsOf(job.model)) return 'waiting';
  let p;
  try {
    p = await provider.get(job.providerId);
  } catch (err) {
    if (err instanceof PredictionNotFound) return refund(deps, job, Messages.generationLost);
    throw err;
  }
  if (!isProviderTerminal(p.status) && overdue) {
    await provider.cancel(p.id).catch(() => undefined);
    return refund(deps, job, Messages.generationTookTooLong);
  }
  return reported(await applyProviderUpdate(deps, job, p));
}

/**
 * A batch, part by part, with a single prediction's rules: a part whose create call's answer was lost keeps a
 * prediction that already succeeded, else what runs for the job is cancelled and the job refunded; a part the provider
 * does not know, or one running past the deadline, ends the job (cancelling the rest) with its whole refund; the rest
 * is applied like a webhook. A batch every part of which has ended but which is still open (its last recorder stopped
 * between the part's write and the job's) is finished now: the images that succeeded, or its whole refund (found by
 * the money simulation on the embedded stack, a kill after the last part's failure).
 */
async function settleBatch(deps: ReconcileJobsDeps, job: Job, batch: readonly BatchPart[], provider: ModelProvider, age: number, overdue: boolean): Promise<Settlement> {
  // Every part ended (its output or its failure recorded) and the job still open: finished now.
  if (batch.every((b) => b.outputUrl || b.failed)) return reported(await finishEndedBatch(deps, job));
  const stopAll = async (listed: readonly string[] = []) =>
    Promise.allSettled([...new Set([...runningPredictions(job), ...listed])].map((id) => provider.cancel(id)));
  const unconfirmed = batch.flatMap((b, part) => (b.providerId ? [] : [part]));
  let outcome: Settlement = 'waiting';
  if (unconfirmed.length) {
    if (age < deps.limits.unconfirmedAfterMs) return 'waiting';
    const found = await predictionsOf(provider, job);
    for (const part of unconfirmed) {
      const own = found.find((f) => f.part === part && f.status === 'succeeded');
      if (!own) {
        await stopAll(found.filter((f) => !isProviderTerminal(f.status)).map((f) => f.id));
        return refund(deps, job, Messages.generationNotConfirmed);
      }
      const applied = reported(await applyProviderUpdate(deps, job, await provider.get(own.id), part));
      if (applied === 'refunded') return applied;
      outcome = applied;
    }
  }
  if (deps.limits.askAfterTypical && age < typicalMsOf(job.model)) return outcome;
  for (const id of runningPredictions(job)) {
    let p;
    try {
      p = await provider.get(id);
    } catch (err) {
      if (!(err instanceof PredictionNotFound)) throw err;
      await stopAll();
      return refund(deps, job, Messages.generationLost);
    }
    if (!isProviderTerminal(p.status) && overdue) {
      await stopAll();
      return refund(deps, job, Messages.generationTookTooLong);
    }
    const applied = reported(await applyProviderUpdate(deps, job, p));
    if (applied === 'refunded' || applied === 'recorded') return applied;
    if (applied !== 'skipped') outcome = applied;
  }
  return outcome;
}

/** What the update really did (a refund that did not land threw, and settleSafely reports it as an error). */
function reported(outcome: UpdateOutcome): Settlement {
  return outcome === 'unchanged' ? 'skipped' : outcome;
}
