/**
 * Starts that degrade instead of fail: when the provider rate limits us (429) or does not answer in time, a charged
 * job is not refunded at once but waits in our own queue (status `pending`, shown `starting`), and the reconciler
 * submits the queue as the provider takes predictions again: oldest first, one job per user in turn, so one user's
 * burst does not hold back everyone else. A queued job that cannot be submitted within the queue's maximum wait is
 * failed and refunded, so every queued job still ends.
 */
import { Messages } from '../../../contract/errors';
import { refundedError } from '../../domain/job-messages';
import type { Job, JobStore } from '../../ports/jobs';
import { submitPrediction, type PredictionRequest, type SubmitDeps, type Submitted } from './submit-prediction';

/** How long a queued job may wait for the provider before it is failed and refunded (ms). */
export const QUEUE_MAX_WAIT_MS = 10 * 60_000;

/** Submits the job's prediction; a busy or silent provider queues it (charged) instead of failing the start. */
export async function submitOrQueue(deps: SubmitDeps, job: Job, req: PredictionRequest): Promise<Submitted | { ok: true; queued: true }> {
  const submitted = await submitPrediction(deps, job, req, { hold: true });
  if (submitted.ok || !('held' in submitted)) return submitted;
  // Nothing runs for it at the provider: queue it (not queued only when it ended meanwhile: a cancel refunded it).
  await deps.jobs.markQueued(job.id, plan(req), deps.now().getTime());
  return { ok: true, queued: true };
}

const plan = (req: PredictionRequest) => ({ model: req.model, ...(req.version ? { version: req.version } : {}), input: req.input });

export interface QueueDrain {
  submitted: number;
  waiting: number;
  refunded: number;
}

/**
 * Submits queued jobs in turn (the oldest of each user first, users in the order of their oldest job) until the
 * provider is busy again; refunds those past `maxWaitMs`. `deadline`: stop submitting after this moment.
 */
export async function drainQueue(
  deps: SubmitDeps & { jobs: JobStore },
  queued: readonly Job[],
  maxWaitMs: number,
  deadline?: () => number,
): Promise<QueueDrain> {
  const result: QueueDrain = { submitted: 0, waiting: 0, refunded: 0 };
  const now = deps.now().getTime();
  const live: Job[] = [];
  for (const job of queued) {
    if (now - (job.queuedAt ?? Date.parse(job.createdAt)) <= maxWaitMs) live.push(job);
    else if (await deps.jobs.failAndRefund(job, 'failed', refundedError(Messages.generationBusy, job.cost))) result.refunded += 1;
  }
  let busy = false;
  for (const job of fairOrder(live)) {
    if (busy || (deadline && Date.now() > deadline())) {
      result.waiting += 1;
      continue;
    }
    const submitted = await submitPrediction(deps, job, job.queued!, { hold: true });
    if (!submitted.ok && 'held' in submitted) {
      busy = true;
      result.waiting += 1;
    } else if (!submitted.ok && submitted.refunded) result.refunded += 1;
    else result.submitted += 1;
  }
  return result;
}

/** Round robin over users: every user's oldest job, then every user's second, ... (users by their oldest job). */
export function fairOrder(jobs: readonly Job[]): Job[] {
  const byOwner = new Map<string, Job[]>();
  for (const job of [...jobs].sort((a, b) => a.createdAt.localeCompare(b.createdAt))) {
    const list = byOwner.get(job.owner) ?? [];
    list.push(job);
    byOwner.set(job.owner, list);
  }
  const lists = [...byOwner.values()];
  const ordered: Job[] = [];
  for (let round = 0; ordered.length < jobs.length; round++) for (const list of lists) if (list[round]) ordered.push(list[round]!);
  return ordered;
}
