import { MEDIA_KINDS } from '../../contract/media-kinds';
import type { CheckStatusResponse } from '../../contract/schemas';
import { NotFound } from '../domain/errors';
import { runningPredictions, type Job, type JobStore, type MediaIndex } from '../ports/jobs';
import type { JobStatusReader } from '../ports/job-status';
import { isTerminal } from '../ports/jobs';
import type { MediaStore } from '../ports/media-store';
import type { ModelProvider } from '../ports/model-provider';
import { applyProviderUpdate } from './steps/apply-provider-update';
import { mediaUrl } from './steps/media-urls';

export interface CheckJobStatusDeps {
  /** The job and the balance in one round trip. */
  status: JobStatusReader;
  jobs: JobStore;
  media: MediaIndex;
  store: MediaStore;
  provider: () => Promise<ModelProvider>;
  now: () => Date;
}

/** How long a job waits for a webhook before a status check asks the provider itself. */
const POLL_AFTER_MS = 4_000;

/** A job's status for its owner (GET /api/check-status/{id}); asks the provider when a webhook seems late. */
export async function checkJobStatus(deps: CheckJobStatusDeps, owner: string, jobId: string): Promise<CheckStatusResponse> {
  const read = await deps.status.read(jobId, owner);
  let job = read.job;
  let value = read.balance;
  if (!job || job.owner !== owner) throw new NotFound('Job not found.');
  const asked = runningPredictions(job);
  if (!isTerminal(job.status) && asked.length && (await deps.jobs.claimPoll(job.id, deps.now().getTime(), POLL_AFTER_MS))) {
    try {
      const provider = await deps.provider();
      for (const id of asked) await applyProviderUpdate(deps, job, await provider.get(id));
    } catch {
      // The provider did not answer; the next poll or the webhook will settle the job.
    }
    ({ job, balance: value } = await deps.status.read(jobId, owner));
    if (!job) throw new NotFound('Job not found.');
  }
  const result: { status: Job['status']; imageUrl?: string; videoUrl?: string; error?: string; value: number; mediaId?: string } = {
    status: job.status === 'pending' ? 'starting' : job.status,
    value,
  };
  if (job.status === 'succeeded' && job.mediaId) {
    // The result's key is on the job since it succeeded (no second read); older jobs read their media item.
    const item = job.mediaKey ? { id: job.mediaId, key: job.mediaKey } : await deps.media.get(owner, job.mediaId);
    if (item) {
      const url = await mediaUrl(deps.store, item);
      result[MEDIA_KINDS[job.kind].statusUrlField] = url;
      result.mediaId = item.id;
    }
  }
  if (job.error) result.error = job.error;
  return result as CheckStatusResponse;
}
