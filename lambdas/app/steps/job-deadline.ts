import { maxRunMsOf } from '../../../contract/catalog';
import type { Job } from '../../ports/jobs';

/** Time past a model's maximum run time that a job may still take: its webhook's delay and its output's save. */
export const RUN_GRACE_MS = 120_000;

/**
 * When an open job must have ended, whatever it is waiting for (its prediction, or the save of a recorded output):
 * the start of its current segment (a clip's later segment), else its charge, plus its model's maximum run time
 * and the grace. Timed from the start rather than from when an output was recorded, so one bound holds a user's
 * queue place and credits whatever stage stalls; an output recorded near the limit still has the grace to be saved.
 */
export const jobDeadline = (job: Pick<Job, 'model' | 'createdAt' | 'segmentAt'>, graceMs = RUN_GRACE_MS): number =>
  (job.segmentAt ?? Date.parse(job.createdAt)) + maxRunMsOf(job.model) + graceMs;

/** Replicate's shortest `Cancel-After` (the simulator refuses less, as the API does). */
export const MIN_CANCEL_AFTER_SECONDS = 5;

/**
 * The `Cancel-After` a prediction for the job is created with: the seconds left until our own deadline for its run
 * (jobDeadline without the grace, which is the save's), so Replicate stops it no later than we give up on it: aborted,
 * and not billed, if it has not started by then (canceled if it is still running). Undefined when less than Replicate's
 * minimum is left (a job that waited in our queue past its run's deadline): such a prediction is not asked for.
 */
export function cancelAfterSeconds(job: Pick<Job, 'model' | 'createdAt' | 'segmentAt'>, now: Date): number | undefined {
  const left = Math.floor((jobDeadline(job, 0) - now.getTime()) / 1000);
  return left >= MIN_CANCEL_AFTER_SECONDS ? left : undefined;
}
