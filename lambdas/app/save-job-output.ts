import { MAX_OUTPUT_BYTES } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { newId } from '../domain/ids';
import { refundedError } from '../domain/job-messages';
import { objectKeys } from '../domain/keys';
import type { JobStore, MediaItem } from '../ports/jobs';
import { isTerminal } from '../ports/jobs';
import type { MediaStore } from '../ports/media-store';

export interface SaveJobOutputDeps {
  jobs: JobStore;
  store: MediaStore;
}

export type SaveOutcome = 'saved' | 'failed' | 'skipped';

/**
 * Copies a job's recorded output to S3 (streamed, capped at the kind's MAX_OUTPUT_BYTES) and ends the job: success
 * stores the media item with the job's transition; an output the provider already deleted, or one too large,
 * fails the job and refunds it. Runs from the table's stream when a webhook or poll records the output, and from
 * the reconciler when that save is overdue; transient failures throw so the stream retries. The object key is the
 * job's own, so a repeated copy overwrites, and the job's condition stores the media item once.
 */
export async function saveJobOutput(deps: SaveJobOutputDeps, jobId: string): Promise<SaveOutcome> {
  const job = await deps.jobs.get(jobId);
  if (!job || isTerminal(job.status) || !job.outputUrl) return 'skipped';
  const urls = job.outputUrls ?? [job.outputUrl];
  const media: MediaItem[] = [];
  // One after another: a several-image job has at most 4 outputs, and each copy streams.
  for (const [index, url] of urls.entries()) {
    const key = objectKeys.result(job, index);
    const copied = await deps.store.copyFromUrl(url, key, job.kind === 'image' ? 'image/png' : 'video/mp4', MAX_OUTPUT_BYTES[job.kind]);
    if (!copied.ok) {
      const reason = copied.why === 'gone' ? Messages.resultRemoved : Messages.resultTooLarge;
      return (await deps.jobs.failAndRefund(job, 'failed', refundedError(reason, job.cost))) ? 'failed' : 'skipped';
    }
    media.push({
      id: newId(new Date(job.createdAt)),
      owner: job.owner,
      type: job.kind,
      key,
      prompt: job.prompt,
      model: job.model,
      // SDXL seeds the whole batch with one generator: every image of it shows the job's seed.
      options: job.options,
      createdAt: job.createdAt,
      jobId: job.id,
    });
  }
  return (await deps.jobs.succeed(job, media)) ? 'saved' : 'skipped';
}
