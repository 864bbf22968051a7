/**
 * A job is tied to its prediction by the webhook URL: `<webhookUrl>?job=<job id>`. When a create call's answer is
 * lost (a timeout, a 5xx, a function that died), that URL is how the prediction it may have made is found again
 * in the provider's list.
 */
import type { Job } from '../../ports/jobs';
import type { ListedPrediction, ModelProvider } from '../../ports/model-provider';

/** How far before a job's creation its prediction may appear to be made (clocks differ). */
const CLOCK_SKEW_MS = 60_000;

export const webhookUrlFor = (webhookUrl: string, jobId: string) => `${webhookUrl}?job=${encodeURIComponent(jobId)}`;

function jobOfWebhook(url: string): string | undefined {
  try {
    return new URL(url).searchParams.get('job') ?? undefined;
  } catch {
    return undefined;
  }
}

/** The provider's predictions made for this job (normally none or one). */
export async function predictionsOf(provider: ModelProvider, job: Pick<Job, 'id' | 'createdAt'>): Promise<ListedPrediction[]> {
  const listed = await provider.listSince(new Date(Date.parse(job.createdAt) - CLOCK_SKEW_MS));
  return listed.filter((p) => p.webhook && jobOfWebhook(p.webhook) === job.id);
}

/** Cancels whatever the provider runs for this job; true when the lookup worked (cancels are best effort). */
export async function cancelPredictionsOf(provider: ModelProvider, job: Pick<Job, 'id' | 'createdAt'>): Promise<boolean> {
  try {
    const found = await predictionsOf(provider, job);
    await Promise.allSettled(found.map((p) => provider.cancel(p.id)));
    return true;
  } catch {
    return false;
  }
}
