/**
 * Generation jobs: start (charge, then ask the provider, refunding if it refuses), apply the provider's
 * updates (from webhooks and from polling, in any order and any number of times), and report status.
 */
import { Messages } from '../../contract/errors';
import { familyOf, IMAGE_MODEL, MAX_START_IMAGE_BYTES } from '../../contract/catalog';
import type { Job, JobKind, JobStore, MediaIndex, MediaItem } from '../ports/jobs';
import { isTerminal } from '../ports/jobs';
import type { MediaStore } from '../ports/media-store';
import { ProviderRefused, type ModelProvider, type ProviderPrediction } from '../ports/model-provider';
import { InvalidInput, NotEnoughCredits, NotFound, ProviderError } from './errors';
import { newId } from './ids';

export interface GenerationDeps {
  jobs: JobStore;
  media: MediaIndex;
  store: MediaStore;
  provider: () => Promise<ModelProvider>;
  /** The URL Replicate calls back; the job id is added as a query parameter. */
  webhookUrl: string;
  now: () => Date;
}

export interface GenerationRequest {
  kind: JobKind;
  model: string;
  version?: string;
  prompt: string;
  cost: number;
  /** Model input without the start image. */
  input: Record<string, unknown>;
  /** An uploaded start image (a key from POST /api/uploads); every model here takes its URL as `image`. */
  startImageKey?: string;
  /** Model input that depends on the start image's size (e.g. Wan's max_area follows its orientation). */
  inputForImage?: (size: ImageSize) => Record<string, unknown>;
  options: Record<string, string | number | boolean>;
}

export interface ImageSize {
  width: number;
  height: number;
}

const START_IMAGE_URL_SECONDS = 15 * 60;
const MEDIA_URL_SECONDS = 60 * 60;
const POLL_AFTER_MS = 4_000;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/**
 * The start image must be the caller's own upload: a PNG at most maxLongSide on its long side. Returns a
 * short-lived URL for the model, and the image's size.
 */
export async function startImage(deps: GenerationDeps, owner: string, key: string, maxLongSide: number): Promise<ImageSize & { url: string }> {
  if (!key.startsWith(`users/${owner}/images/`) || key.includes('..')) throw new InvalidInput('Unknown start image. Upload it again.');
  const head = await deps.store.head(key, 32);
  if (!head) throw new InvalidInput('Unknown start image. Upload it again.');
  if (head.size > MAX_START_IMAGE_BYTES) throw new InvalidInput(Messages.imageTooLarge);
  if (head.start.length < 24 || !head.start.subarray(0, 8).equals(PNG_SIGNATURE)) throw new InvalidInput(Messages.invalidImage);
  const width = head.start.readUInt32BE(16);
  const height = head.start.readUInt32BE(20);
  if (Math.max(width, height) > maxLongSide || width < 1 || height < 1) {
    throw new InvalidInput(`The start image must be at most ${maxLongSide} pixels on its long side.`);
  }
  return { url: await deps.store.presignGet(key, START_IMAGE_URL_SECONDS), width, height };
}

/** The catalog's limit on a start image's long side for this model (what the web resizes to before uploading). */
function startImageLongSideOf(model: string): number {
  if (model === IMAGE_MODEL.id) return IMAGE_MODEL.startImageLongSide;
  const family = familyOf(model);
  if (!family) throw new Error(`No catalog entry for ${model}`);
  return family.startImageLongSide;
}

/** `balance`: the owner's balance as just read (getOrCreateAccount), if known; it saves the charge a read. */
export async function startGeneration(deps: GenerationDeps, owner: string, req: GenerationRequest, balance?: number) {
  const input = { ...req.input };
  if (req.startImageKey) {
    const image = await startImage(deps, owner, req.startImageKey, startImageLongSideOf(req.model));
    input.image = image.url;
    Object.assign(input, req.inputForImage?.({ width: image.width, height: image.height }));
  }

  const now = deps.now();
  const job: Job = {
    id: newId(now),
    owner,
    kind: req.kind,
    model: req.model,
    prompt: req.prompt,
    options: { ...req.options, ...(req.startImageKey ? { startImage: true } : {}) },
    cost: req.cost,
    status: 'pending',
    createdAt: now.toISOString(),
  };
  const charged = await deps.jobs.createCharged(job, balance);
  if (!charged.ok) throw new NotEnoughCredits(req.cost);

  let prediction: ProviderPrediction;
  try {
    const provider = await deps.provider();
    prediction = await provider.create({
      model: req.model,
      version: req.version,
      input,
      webhookUrl: `${deps.webhookUrl}?job=${encodeURIComponent(job.id)}`,
    });
  } catch (err) {
    const refused = err instanceof ProviderRefused;
    const message = refused ? err.message : 'The generation service is unavailable. Your credits were refunded.';
    await deps.jobs.failAndRefund(job, 'failed', message);
    if (refused) throw new InvalidInput(message);
    throw new ProviderError(message);
  }
  await deps.jobs.markStarted(job.id, prediction.id, prediction.status === 'starting' ? 'starting' : 'processing');
  if (isTerminal(prediction.status)) await applyUpdate(deps, { ...job, providerId: prediction.id }, prediction);
  return { predictionId: job.id, credits: charged.balance };
}

/** Where a job's result lives in the bucket: deterministic, so a repeated copy overwrites, never duplicates. */
export function resultKey(job: Job): string {
  const ts = Date.parse(job.createdAt);
  const suffix = job.id.split('-')[1] ?? job.id;
  return job.kind === 'image' ? `users/${job.owner}/images/${ts}-${suffix}.png` : `users/${job.owner}/videos/video-${ts}-${suffix}.mp4`;
}

/**
 * Applies what the provider says about a job. Safe to call any number of times from webhooks and polls in
 * any order: the job store makes each terminal transition (and its refund) happen once.
 */
export async function applyUpdate(deps: GenerationDeps, job: Job, p: ProviderPrediction): Promise<void> {
  if (isTerminal(job.status)) return;
  if (p.status === 'succeeded') {
    const url = p.output[0];
    if (!url) {
      await deps.jobs.failAndRefund(job, 'failed', job.kind === 'image' ? Messages.imageGenerationFailed : Messages.videoGenerationFailed);
      return;
    }
    const key = resultKey(job);
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
    const fallback = job.kind === 'image' ? Messages.imageGenerationFailed : Messages.videoGenerationFailed;
    await deps.jobs.failAndRefund(job, p.status, p.error || fallback);
    return;
  }
  if (p.status !== job.status) await deps.jobs.markProgress(job.id, p.status);
}

export function downloadName(prompt: string, createdAt: string, type: JobKind): string {
  const base = prompt.trim().replace(/[^\p{L}\p{N} _-]+/gu, '').replace(/\s+/g, ' ').trim().slice(0, 60) || 'prompt';
  return `${base}-${Date.parse(createdAt)}.${type === 'image' ? 'png' : 'mp4'}`;
}

export async function mediaUrls(deps: Pick<GenerationDeps, 'store'>, item: MediaItem) {
  const [url, downloadUrl] = await Promise.all([
    deps.store.presignGet(item.key, MEDIA_URL_SECONDS),
    deps.store.presignGet(item.key, MEDIA_URL_SECONDS, downloadName(item.prompt, item.createdAt, item.type)),
  ]);
  return { url, downloadUrl };
}

/** A job's status for its owner; asks the provider when a webhook seems late. */
export async function checkStatus(deps: GenerationDeps, owner: string, jobId: string) {
  let job = await deps.jobs.get(jobId);
  if (!job || job.owner !== owner) throw new NotFound('Job not found.');
  if (!isTerminal(job.status) && job.providerId && (await deps.jobs.claimPoll(job.id, deps.now().getTime(), POLL_AFTER_MS))) {
    try {
      const provider = await deps.provider();
      await applyUpdate(deps, job, await provider.get(job.providerId));
    } catch {
      // The provider did not answer; the next poll or the webhook will settle the job.
    }
    job = (await deps.jobs.get(jobId))!;
  }
  const value = await deps.jobs.balance(owner);
  const result: { status: Job['status']; imageUrl?: string; videoUrl?: string; error?: string; value: number; mediaId?: string } = {
    status: job.status === 'pending' ? 'starting' : job.status,
    value,
  };
  if (job.status === 'succeeded' && job.mediaId) {
    const item = await deps.media.get(owner, job.mediaId);
    if (item) {
      const url = await deps.store.presignGet(item.key, MEDIA_URL_SECONDS);
      if (job.kind === 'image') result.imageUrl = url;
      else result.videoUrl = url;
      result.mediaId = item.id;
    }
  }
  if (job.error) result.error = job.error;
  return result;
}

/** A webhook for a job: the prediction must be the job's own. */
export async function handleProviderCallback(deps: GenerationDeps, jobId: string, p: ProviderPrediction): Promise<void> {
  const job = await deps.jobs.get(jobId);
  if (!job || !job.providerId || job.providerId !== p.id) return;
  await applyUpdate(deps, job, p);
}
