import { Messages } from '../../../contract/errors';
import { newId } from '../../domain/ids';
import { objectKeys } from '../../domain/keys';
import type { Job, JobStore, MediaItem } from '../../ports/jobs';
import { isTerminal } from '../../ports/jobs';
import type { MediaStore } from '../../ports/media-store';
import type { ProviderPrediction } from '../../ports/model-provider';

export interface ApplyUpdateDeps {
  jobs: JobStore;
  store: MediaStore;
}

/**
 * Applies what the provider says about a job. Safe to call any number of times from webhooks and polls in
 * any order: the job store makes each terminal transition (and its refund) happen once.
 */
export async function applyProviderUpdate(deps: ApplyUpdateDeps, job: Job, p: ProviderPrediction): Promise<void> {
  if (isTerminal(job.status)) return;
  const fallback = job.kind === 'image' ? Messages.imageGenerationFailed : Messages.videoGenerationFailed;
  if (p.status === 'succeeded') {
    const url = p.output[0];
    if (!url) {
      await deps.jobs.failAndRefund(job, 'failed', fallback);
      return;
    }
    const key = objectKeys.result(job);
    await deps.store.copyFromUrl(url, key, job.kind === 'image' ? 'image/png' : 'video/mp4');
    const media: MediaItem = {
      id: newId(new Date(job.createdAt)),
      owner: job.owner,
      type: job.kind,
      key,
      prompt: job.prompt,
      model: job.model,
      options: job.options,
      createdAt: job.createdAt,
      jobId: job.id,
    };
    await deps.jobs.succeed(job, media);
    return;
  }
  if (p.status === 'failed' || p.status === 'canceled') {
    await deps.jobs.failAndRefund(job, p.status, p.error || fallback);
    return;
  }
  if (p.status !== job.status) await deps.jobs.markProgress(job.id, p.status);
}
