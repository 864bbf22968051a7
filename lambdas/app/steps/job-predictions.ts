/**
 * A job is tied to its prediction by the webhook URL: `<webhookUrl>?job=<job id>` (with `&segment=<n>` for a clip's
 * later segments). When a create call's answer is
 * lost (a timeout, a 5xx, a function that died), that URL is how the prediction it may have made is found again
 * in the provider's list.
 */
import type { Job } from '../../ports/jobs';
import type { ListedPrediction, ModelProvider } from '../../ports/model-provider';

/** How far before a job's creation its prediction may appear to be made (clocks differ). */
const CLOCK_SKEW_MS = 60_000;

type JobRef = Pick<Job, 'id' | 'createdAt' | 'segment' | 'segmentAt'>;

export const webhookUrlFor = (webhookUrl: string, job: Pick<Job, 'id' | 'segment'>) =>
  `${webhookUrl}?job=${encodeURIComponent(job.id)}${(job.segment ?? 1) > 1 ? `&segment=${job.segment}` : ''}`;

/** The job and segment a webhook URL names. */
function ofWebhook(url: string): { job?: string; segment: number } {
  try {
    const q = new URL(url).searchParams;
    return { ...(q.get('job') ? { job: q.get('job')! } : {}), segment: Number(q.get('segment') ?? 1) };
  } catch {
    return { segment: 0 };
  }
}

/** The provider's predictions made for this job's current segment (normally none or one). */
export async function predictionsOf(provider: ModelProvider, job: JobRef): Promise<ListedPrediction[]> {
  const listed = await provider.listSince(new Date((job.segmentAt ?? Date.parse(job.createdAt)) - CLOCK_SKEW_MS));
  return listed.filter((p) => {
    const named = p.webhook ? ofWebhook(p.webhook) : undefined;
    return named?.job === job.id && named.segment === (job.segment ?? 1);
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
