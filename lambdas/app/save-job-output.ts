import { MAX_OUTPUT_BYTES } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { newId } from '../domain/ids';
import { refundedError } from '../domain/job-messages';
import { objectKeys } from '../domain/keys';
import { pngSize } from '../domain/png';
import type { Job, JobStore, MediaItem } from '../ports/jobs';
import { isTerminal } from '../ports/jobs';
import type { MediaStore } from '../ports/media-store';
import { MediaToolFailed, type MediaTools } from '../ports/media-tools';
import { submitPrediction, type SubmitDeps } from './steps/submit-prediction';

export interface SaveJobOutputDeps extends SubmitDeps {
  jobs: JobStore;
  store: MediaStore;
  /** ffmpeg: probes videos, makes their posters, cuts and joins a clip's segments. */
  tools: () => Promise<MediaTools>;
  log: (message: string, details: Record<string, unknown>) => void;
}

/** saved: the job succeeded; continued: a clip's next segment was started; failed: refunded. */
export type SaveOutcome = 'saved' | 'continued' | 'failed' | 'skipped';

/** A clip's next segment gets its start image (the last frame) by a URL good for this long (it may queue a while). */
const FRAME_URL_SECONDS = 2 * 60 * 60;

/**
 * Copies a job's recorded output to S3 (streamed, capped at the kind's MAX_OUTPUT_BYTES) and ends the job: success
 * stores the media item (with the size, and a video's length and poster, probed from the file) with the job's
 * transition; an output the provider already deleted, or one too large, fails the job and refunds it. A clip made
 * of segments (a 10 s Wan clip) instead starts its next segment from this one's last frame, and its last segment's
 * save joins them all into the one video. A video ffmpeg cannot read, cut or join refunds. Runs from the table's
 * stream when a webhook or poll records the output, and from the reconciler when that save is overdue; transient
 * failures throw so the stream retries. Object keys are the job's own, so a repeated copy overwrites, and the job's
 * conditions store the media item, or start a segment, once.
 */
export async function saveJobOutput(deps: SaveJobOutputDeps, jobId: string): Promise<SaveOutcome> {
  const job = await deps.jobs.get(jobId);
  if (!job || isTerminal(job.status) || !job.outputUrl) return 'skipped';
  try {
    return job.kind === 'image' ? await saveImages(deps, job) : await saveVideo(deps, job);
  } catch (err) {
    if (!(err instanceof MediaToolFailed)) throw err;
    deps.log('save-job-output: video not processed', { jobId, error: err.message });
    return fail(deps, job, Messages.resultUnreadable);
  }
}

const fail = async (deps: SaveJobOutputDeps, job: Job, reason: string): Promise<SaveOutcome> =>
  (await deps.jobs.failAndRefund(job, 'failed', refundedError(reason, job.cost))) ? 'failed' : 'skipped';

/** Copies one output into key; false when it cannot be kept (gone or too large: the job was failed and refunded). */
async function copy(deps: SaveJobOutputDeps, job: Job, url: string, key: string): Promise<boolean> {
  const copied = await deps.store.copyFromUrl(url, key, job.kind === 'image' ? 'image/png' : 'video/mp4', MAX_OUTPUT_BYTES[job.kind]);
  if (copied.ok) return true;
  await fail(deps, job, copied.why === 'gone' ? Messages.resultRemoved : Messages.resultTooLarge);
  return false;
}

function mediaOf(job: Job, key: string, probed: Pick<MediaItem, 'width' | 'height' | 'durationSeconds' | 'posterKey'>): MediaItem {
  return {
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
    ...probed,
  };
}

async function saveImages(deps: SaveJobOutputDeps, job: Job): Promise<SaveOutcome> {
  const urls = job.outputUrls ?? [job.outputUrl!];
  const media: MediaItem[] = [];
  // One after another: a several-image job has at most 4 outputs, and each copy streams.
  for (const [index, url] of urls.entries()) {
    const key = objectKeys.result(job, index);
    if (!(await copy(deps, job, url, key))) return 'failed';
    const head = await deps.store.head(key, 24);
    const size = head && pngSize(head.start);
    media.push(mediaOf(job, key, size ?? {}));
  }
  return (await deps.jobs.succeed(job, media)) ? 'saved' : 'skipped';
}

async function saveVideo(deps: SaveJobOutputDeps, job: Job): Promise<SaveOutcome> {
  const segment = job.segment ?? 1;
  const later = job.continuation ?? [];
  const result = objectKeys.result(job, 0);
  // A single clip is copied straight to its place; a segment waits under its own key for the join.
  const key = later.length ? objectKeys.segment(job, segment) : result;
  if (!(await copy(deps, job, job.outputUrl!, key))) return 'failed';
  const tools = await deps.tools();
  const max = MAX_OUTPUT_BYTES.video;
  const video = await deps.store.getBytes(key, max);

  if (segment <= later.length) {
    // Not the last segment: the next one starts from this one's last frame.
    const frame = await tools.lastFrame(video);
    const frameKey = objectKeys.segmentFrame(job, segment);
    await deps.store.put(frameKey, frame, 'image/png');
    const image = await deps.store.presignGet(frameKey, FRAME_URL_SECONDS);
    const at = deps.now().getTime();
    if (!(await deps.jobs.startSegment(job, key, at))) return 'skipped';
    const next: Job = { ...job, segment: segment + 1, segmentAt: at, segmentKeys: [...(job.segmentKeys ?? []), key], pastProviderIds: [...(job.pastProviderIds ?? []), job.providerId!] };
    delete next.providerId;
    delete next.outputUrl;
    delete next.outputUrls;
    delete next.outputAt;
    const plan = later[segment - 1]!;
    const submitted = await submitPrediction(deps, next, { ...plan, input: { ...plan.input, image } });
    return submitted.ok ? 'continued' : 'failed';
  }

  const parts = job.segmentKeys ?? [];
  const joined = parts.length ? await tools.join([...(await Promise.all(parts.map((k) => deps.store.getBytes(k, max)))), video]) : video;
  if (parts.length) await deps.store.put(result, joined, 'video/mp4');
  const info = await tools.probe(joined);
  const posterKey = objectKeys.poster(result);
  await deps.store.put(posterKey, await tools.poster(joined), 'image/jpeg');
  const media = mediaOf(job, result, { width: info.width, height: info.height, durationSeconds: Math.round(info.durationSeconds * 100) / 100, posterKey });
  const saved = await deps.jobs.succeed(job, [media]);
  if (saved && parts.length) {
    // The segments and their frames are no longer needed (best effort: a leftover is only a stray object).
    const leftovers = [...parts, key, ...parts.map((_, i) => objectKeys.segmentFrame(job, i + 1))];
    await Promise.allSettled(leftovers.map((k) => deps.store.remove(k)));
  }
  return saved ? 'saved' : 'skipped';
}
