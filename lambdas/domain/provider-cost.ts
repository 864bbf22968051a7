/**
 * What a job's predictions cost us at Replicate, and what its credits are worth, from the model registry's prices
 * (contract/models/: `providerCents`, per order as the model's page publishes it, which already counts what the model
 * bills by: per output image, per second of video) and the cheapest credit pack.
 */
import { modelOfReplicate, runOf } from '../../contract/models';
import type { ResolvedOptions } from '../../contract/models/types';
import { BEST_PACK_CENTS_PER_CREDIT } from '../../contract/plans';

/**
 * One ended prediction's cost in US cents: nothing when it never ran (`predictTime` absent or 0: aborted, or cancelled
 * before it started, which Replicate does not bill), else the order's published cost shared by its predictions (a
 * batch's images, a clip's segments).
 */
/** What of a job the cost needs: its model, its options, and a batch's parts (one prediction each). */
interface CostedJob {
  model: string;
  options?: Readonly<Record<string, unknown>>;
  batch?: readonly unknown[];
}

export function predictionCents(job: CostedJob, predictTime: number | undefined): number {
  if (!predictTime || predictTime <= 0) return 0;
  const def = modelOfReplicate(job.model);
  if (!def?.providerCents) return 0;
  const options = (job.options ?? {}) as ResolvedOptions;
  const order = def.providerCents(options);
  // A batch runs one prediction per image, a clip one per segment.
  const predictions = (job.batch?.length ?? 1) * runOf(def, options).predictions;
  return Number.isFinite(order) ? Math.round((order / predictions) * 100) / 100 : 0;
}

/** A succeeded job's credits in US cents, at the cheapest pack's price per credit (the least a credit brings in). */
export const revenueCents = (credits: number): number => Math.round(credits * BEST_PACK_CENTS_PER_CREDIT * 100) / 100;
