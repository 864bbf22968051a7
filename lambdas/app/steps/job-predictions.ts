/**
 * A job is tied to its prediction by the webhook URL: `<webhookUrl>?job=<job id>` (with `&segment=<n>` for a clip's
 * later segments, `&part=<n>` for a batch's images, from 0). When a create call's answer is
 * lost (a timeout, a 5xx, a function that died), that URL is how the prediction it may have made is found again
 * in the provider's list.
 */
import type { Job } from '../../ports/jobs';
import type { ListedPrediction, ModelProvider } from '../../ports/model-provider';

/** How far before a job's creation its prediction may appear to be made (clocks differ). */
const CLOCK_SKEW_MS = 60_000;

type JobRef = Pick<Job, 'id' | 'createdAt' | 'segment' | 'segmentAt'>;

export const webhookUrlFor = (webhookUrl: string, job: Pick<Job, 'id' | 'segment'>, part?: number) =>
  `${webhookUrl}?job=${encodeURIComponent(job.id)}${(job.segment ?? 1) > 1 ? `&segment=${job.segment}` : ''}${part !== undefined ? `&part=${part}` : ''}`;

/** The job, segment and batch part a webhook URL names. */
function ofWebhook(url: string): { job?: string; segment: number; part?: number } {
  try {
    const q = new URL(url).searchParams;
    return { ...(q.get('job') ? { job: q.get('job')! } : {}), segment: Number(q.get('segment') ?? 1), ...(q.get('part') ? { part: Number(q.get('part')) } : {}) };
  } catch {
    return { segment: 0 };
  }
}

/** The provider's predictions made for this job's current segment (normally none or one; a batch's, one per part). */
export async function predictionsOf(provider: ModelProvider, job: JobRef): Promise<Array<ListedPrediction & { part?: number }>> {
  const listed = await provider.listSince(new Date((job.segmentAt ?? Date.parse(job.createdAt)) - CLOCK_SKEW_MS));
  return listed.flatMap((p) => {
    const named = p.webhook ? ofWebhook(p.webhook) : undefined;
    if (named?.job !== job.id || named.segment !== (job.segment ?? 1)) return [];
    return [{ ...p, ...(named.part !== undefined ? { part: named.part } : {}) }];
  });
}

/** Cancels whatever the provider runs for this job's current segment; true when the lookup worked (cancels are best effort). */
export async function cancelPredictionsOf(provider: ModelProvider, job: JobRef): Promise<boolean> {
  try {
    const found = await predictionsOf(provider, job);
    await Promise.allSettled(found.map((p) => provider.cancel(p.id)));
    return true;
  } catch {
    return false;
  }
}
