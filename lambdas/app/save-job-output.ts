import { Messages } from '../../contract/errors';
import { MEDIA_KINDS, type MediaKind } from '../../contract/media-kinds';
import { modelOfReplicate } from '../../contract/models';
import { newId } from '../domain/ids';
import { refundedError } from '../domain/job-messages';
import { objectKeys } from '../domain/keys';
import { batchFailedCredits } from '../domain/money-rules';
import { checkPng } from '../domain/png';
import type { BatchPart, Job, JobStore, MediaIndex, MediaItem } from '../ports/jobs';
import { isTerminal } from '../ports/jobs';
import type { ContentCredentials, CredentialedType, Provenance, SourceFile } from '../ports/content-credentials';
import type { MediaStore } from '../ports/media-store';
import { MediaToolFailed, type MediaTools, type VideoInfo } from '../ports/media-tools';
import { isProviderTerminal } from '../ports/model-provider';
import { applyProviderUpdate } from './steps/apply-provider-update';
import { jobDeadline } from './steps/job-deadline';
import { predictionsOf } from './steps/job-predictions';
import { submitPrediction, type SubmitDeps } from './steps/submit-prediction';

export interface SaveJobOutputDeps extends SubmitDeps {
  jobs: JobStore;
  store: MediaStore;
  /** The results a job was made from (an edit's source, a start frame), named in its content credentials. */
  media: MediaIndex;
  /** ffmpeg: probes videos, makes their posters, cuts and joins a clip's segments. */
  tools: () => Promise<MediaTools>;
  /** Signs the C2PA manifest embedded in every file kept (the signer follows the secret: made on first use). */
  credentials: () => Promise<ContentCredentials>;
  log: (message: string, details: Record<string, unknown>) => void;
  /** Added to the model's maximum run time to make the job's deadline (steps/job-deadline.ts; its default otherwise). */
  graceMs?: number;
}

/**
 * saved: the job succeeded; continued: a clip's next segment was started; failed: refunded; deferred: the download
 * stalled and is left to the reconciler (a retry in the stream would hold every later change behind it).
 */
export type SaveOutcome = 'saved' | 'continued' | 'failed' | 'deferred' | 'skipped';

/** Thrown inside a save when its output cannot be kept: the job is failed with this reason and refunded. */
class Unusable extends Error {}
/** Thrown inside a save when the download stalled. */
class Deferred extends Error {}

/** A clip's next segment gets its start image (the last frame) by a URL good for this long (it may queue a while). */
const FRAME_URL_SECONDS = 2 * 60 * 60;

/**
 * Copies a job's recorded output to S3 (streamed, capped at its media kind's maxBytes) and ends the job: success
 * stores the media item (with the size, and a video's length and poster, probed from the file) with the job's
 * transition; an output the provider already deleted, or one too large, fails the job and refunds it. A clip made
 * of segments (a 10 s Wan clip) instead starts its next segment from this one's last frame, and its last segment's
 * save joins them all into the one video. Success means a usable file: an image must decode whole as the type the
 * model promises, a video must decode every frame without an error and be as long as asked within a frame;
 * anything else fails and refunds, and so does a video ffmpeg cannot read, cut or join, and a save still not done
 * at the job's deadline. Runs from the table's stream when a webhook or poll records the output, and from the
 * reconciler when that save is overdue; transient failures throw so the stream retries (and a retry finishes a
 * segment's start that a stopped save left half made: resumeSegment). Object keys are the job's
 * own, so a repeated copy overwrites, and the job's conditions store the media item, or start a segment, once.
 */
export async function saveJobOutput(deps: SaveJobOutputDeps, jobId: string): Promise<SaveOutcome> {
  const job = await deps.jobs.get(jobId);
  if (!job || isTerminal(job.status)) return 'skipped';
  if (!job.outputUrl) return awaitsItsPrediction(job) ? resumeSegment(deps, job) : 'skipped';
  if (deps.now().getTime() > jobDeadline(job, deps.graceMs)) return fail(deps, job, Messages.resultNotSaved);
  try {
    return await SAVE[job.kind](deps, job);
  } catch (err) {
    if (err instanceof Deferred) return 'deferred';
    if (err instanceof Unusable) {
      deps.log('save-job-output: output not usable', { jobId, error: err.cause });
      return fail(deps, job, err.message);
    }
    if (!(err instanceof MediaToolFailed)) throw err;
    deps.log('save-job-output: video not processed', { jobId, error: err.message });
    return fail(deps, job, Messages.resultUnreadable);
  }
}

const fail = async (deps: SaveJobOutputDeps, job: Job, reason: string): Promise<SaveOutcome> =>
  (await deps.jobs.failAndRefund(job, 'failed', refundedError(reason, job.cost))) ? 'failed' : 'skipped';

/** Copies one output into key and reads it back (bounded by the kind's cap); throws Unusable when it cannot be kept. */
async function copy(deps: SaveJobOutputDeps, job: Job, url: string, key: string): Promise<Buffer> {
  const { contentType, maxBytes } = MEDIA_KINDS[job.kind];
  const copied = await deps.store.copyFromUrl(url, key, contentType, maxBytes);
  if (!copied.ok && copied.why === 'stalled') throw new Deferred();
  if (!copied.ok) throw new Unusable(copied.why === 'gone' ? Messages.resultRemoved : Messages.resultTooLarge);
  return deps.store.getBytes(key, maxBytes);
}

/** A damaged file is removed (best effort) before the job fails: nothing unusable stays in the bucket. */
async function unusable(deps: SaveJobOutputDeps, key: string, reason: string, why: string): Promise<never> {
  await deps.store.remove(key).catch(() => undefined);
  throw new Unusable(reason, { cause: why });
}

/** The image decoded whole as the PNG every image is (its plan asks the model for one); its size. */
async function checkedImage(deps: SaveJobOutputDeps, key: string, image: Buffer): Promise<{ width: number; height: number }> {
  const png = checkPng(image);
  return png.ok ? { width: png.width, height: png.height } : unusable(deps, key, Messages.resultDamaged, png.why);
}

/**
 * The video decoded frame by frame without an error, and as long as asked: `part` is a clip's segment, checked
 * against the frames one prediction renders; otherwise the whole clip's.
 */
async function checkedVideo(deps: SaveJobOutputDeps, job: Job, tools: MediaTools, key: string, video: Buffer, part: boolean): Promise<VideoInfo> {
  let info: VideoInfo;
  try {
    info = await tools.check(video);
  } catch (err) {
    if (!(err instanceof MediaToolFailed)) throw err;
    return unusable(deps, key, Messages.resultDamaged, err.message);
  }
  const asked = modelOfReplicate(job.model)?.videoLength?.(job.options);
  const frames = !asked ? undefined : 'seconds' in asked ? asked.seconds * info.fps : part ? asked.segmentFrames : asked.frames;
  if (frames !== undefined && Math.abs(info.frames - frames) > 1) {
    return unusable(deps, key, Messages.resultWrongLength, `${info.frames} frames at ${info.fps} fps, ${frames} asked`);
  }
  return info;
}

/**
 * Replaces the stored file with the same file carrying its content credentials (model, version, date, and the results
 * it was made from), before the job succeeds: no result is ever listed, shared or downloaded without them.
 */
async function signed(deps: SaveJobOutputDeps, job: Job, key: string, file: Buffer, type: CredentialedType): Promise<void> {
  const version = modelOfReplicate(job.model)?.models.find((m) => m.id === job.model)?.version;
  const credentials = await deps.credentials();
  const provenance: Provenance = { model: job.model, ...(version ? { version } : {}), createdAt: job.createdAt, ...(await sourcesOf(deps, job)) };
  await deps.store.put(key, await credentials.sign(file, type, provenance), type);
}

/**
 * The results a job was made from, as its options recorded them (steps/start-job.ts): an edit's or upscale's source is
 * its parent (the model changed that picture); a start or end frame, and the picture a variation repeats (its model
 * ran again on its prompt and settings), were inputs to a model that made a new file.
 */
async function sourcesOf(deps: SaveJobOutputDeps, job: Job): Promise<Pick<Provenance, 'parent' | 'inputs'>> {
  const source = async (id: unknown): Promise<SourceFile[]> => {
    if (typeof id !== 'string') return [];
    const item = await deps.media.get(job.owner, id);
    // A result deleted since the job started is still named, without its own credentials: as an image, the only
    // kind a job takes as its source or frame.
    const kind = MEDIA_KINDS[item?.type ?? 'image'];
    const type: CredentialedType = kind.contentType;
    const title = `${id}.${kind.extension}`;
    return [item ? { file: await deps.store.getBytes(item.key, kind.maxBytes), type, title } : { type, title }];
  };
  const operation = modelOfReplicate(job.model)?.operation;
  const [parent] = operation === 'edit' || operation === 'upscale' ? await source(job.options.sourceMediaId) : [];
  const inputs = [...(parent ? [] : await source(job.options.sourceMediaId)), ...(await source(job.options.startMediaId)), ...(await source(job.options.endMediaId))];
  return { ...(parent ? { parent: { source: parent, change: operation === 'upscale' ? 'c2pa.resized' : 'c2pa.edited' } } : {}), ...(inputs.length ? { inputs } : {}) };
}

function mediaOf(job: Job, key: string, probed: Pick<MediaItem, 'width' | 'height' | 'durationSeconds' | 'posterKey'>, part?: BatchPart): MediaItem {
  return {
    id: newId(new Date(job.createdAt)),
    owner: job.owner,
    type: job.kind,
    key,
    prompt: job.prompt,
    model: job.model,
    // A batch's image was its own prediction: it shows the seed that makes it again.
    options: part ? { ...job.options, seed: part.seed } : job.options,
    createdAt: job.createdAt,
    jobId: job.id,
    credits: job.cost,
    ...probed,
  };
}

/**
 * A batch some of whose parts made no image: the failed parts' price (the batch's cost is one price per image), to
 * come back with the success, and the job's message saying so.
 */
function partRefundOf(job: Job): { credits: number; note: string } | undefined {
  const failed = job.batch?.filter((b) => b.failed).length ?? 0;
  if (!failed) return undefined;
  const credits = batchFailedCredits(job);
  return { credits, note: Messages.batchPartlyFailed(failed, job.batch!.length, credits) };
}

async function saveImages(deps: SaveJobOutputDeps, job: Job): Promise<SaveOutcome> {
  const urls = job.outputUrls ?? [job.outputUrl!];
  // A batch's outputs are those of its parts that did not fail, in part order.
  const parts = job.batch?.filter((b) => !b.failed);
  const media: MediaItem[] = [];
  // One after another: a several-image job has at most 4 outputs, and each copy streams.
  try {
    for (const [index, url] of urls.entries()) {
      const key = objectKeys.result(job, index);
      const image = await copy(deps, job, url, key);
      const size = await checkedImage(deps, key, image);
      await signed(deps, job, key, image, 'image/png');
      media.push(mediaOf(job, key, size, parts?.[index]));
    }
  } catch (err) {
    // The job fails whole: the images already copied go too (best effort, as for the broken one).
    if (err instanceof Unusable) await Promise.allSettled(media.map((m) => deps.store.remove(m.key)));
    throw err;
  }
  return (await deps.jobs.succeed(job, media, partRefundOf(job))) ? 'saved' : 'skipped';
}

/** A clip on a later segment with no prediction recorded for it, nor one waiting in our queue. */
const awaitsItsPrediction = (job: Job): boolean => (job.segment ?? 1) > 1 && !job.providerId && !job.queued && Boolean(job.continuation?.[job.segment! - 2]);

/**
 * The save that moved the clip to this segment stopped before the segment's prediction was recorded (its function
 * died, or a write's answer was lost and it threw): the stream delivers the save's record again, and this finishes the
 * step. A prediction the stopped save made (found by its webhook URL, which names the segment) is the job's, as its
 * webhook would have made it; otherwise the segment is asked for now. Nothing else would: with no prediction to poll or
 * hear from, the job would wait for the reconciler to refund it.
 */
async function resumeSegment(deps: SaveJobOutputDeps, job: Job): Promise<SaveOutcome> {
  const provider = await deps.provider();
  const found = await predictionsOf(provider, job);
  const made = found.find((p) => p.status === 'succeeded') ?? found.find((p) => !isProviderTerminal(p.status)) ?? found[0];
  if (!made) return submitSegment(deps, job);
  const outcome = await applyProviderUpdate(deps, job, await provider.get(made.id));
  return outcome === 'refunded' ? 'failed' : 'continued';
}

/** Asks for the clip's current segment (from 2), started from the previous segment's last frame, kept in S3. */
async function submitSegment(deps: SaveJobOutputDeps, job: Job): Promise<SaveOutcome> {
  const segment = job.segment!;
  const plan = job.continuation![segment - 2]!;
  const image = await deps.store.presignGet(objectKeys.segmentFrame(job, segment - 1), FRAME_URL_SECONDS);
  const submitted = await submitPrediction(deps, job, { ...plan, input: { ...plan.input, image } });
  return submitted.ok ? 'continued' : 'failed';
}

async function saveVideo(deps: SaveJobOutputDeps, job: Job): Promise<SaveOutcome> {
  const segment = job.segment ?? 1;
  const later = job.continuation ?? [];
  const result = objectKeys.result(job, 0);
  // A single clip is copied straight to its place; a segment waits under its own key for the join.
  const key = later.length ? objectKeys.segment(job, segment) : result;
  const video = await copy(deps, job, job.outputUrl!, key);
  const tools = await deps.tools();
  const max = MEDIA_KINDS.video.maxBytes;
  const checked = await checkedVideo(deps, job, tools, key, video, later.length > 0);

  if (segment <= later.length) {
    // Not the last segment: the next one starts from this one's last frame.
    const frame = await tools.lastFrame(video);
    await deps.store.put(objectKeys.segmentFrame(job, segment), frame, 'image/png');
    const at = deps.now().getTime();
    if (!(await deps.jobs.startSegment(job, key, at))) return 'skipped';
    const next: Job = { ...job, segment: segment + 1, segmentAt: at, segmentKeys: [...(job.segmentKeys ?? []), key], pastProviderIds: [...(job.pastProviderIds ?? []), job.providerId!] };
    delete next.providerId;
    delete next.outputUrl;
    delete next.outputUrls;
    delete next.outputAt;
    return submitSegment(deps, next);
  }

  const parts = job.segmentKeys ?? [];
  const joined = parts.length ? await tools.join([...(await Promise.all(parts.map((k) => deps.store.getBytes(k, max)))), video]) : video;
  if (parts.length) await deps.store.put(result, joined, 'video/mp4');
  // The join is checked as the provider's files are: the whole clip, every frame, its length.
  const info = parts.length ? await checkedVideo(deps, job, tools, result, joined, false) : checked;
  await signed(deps, job, result, joined, 'video/mp4');
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

/** How each kind of output is saved: images one by one as they are, a video probed, joined from its segments, given a poster. */
const SAVE: Record<MediaKind, (deps: SaveJobOutputDeps, job: Job) => Promise<SaveOutcome>> = { image: saveImages, video: saveVideo };
