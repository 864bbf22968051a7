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
