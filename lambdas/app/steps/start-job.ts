/**
 * The step every generation starts with: check the start image, charge the cost and store the job in one
 * transaction, then ask the provider, refunding at once if it refuses or cannot be reached.
 */
import { Messages } from '../../../contract/errors';
import { MAX_ACTIVE_JOBS, MAX_START_IMAGE_BYTES } from '../../../contract/catalog';
import { modelOfReplicate, type ImageInputId } from '../../../contract/models';
import { Conflict, InvalidInput, NotEnoughCredits, NotFound, ProviderError, RateLimited } from '../../domain/errors';
import { newId } from '../../domain/ids';
import { objectKeys } from '../../domain/keys';
import type { Job, JobKind, JobStore, MediaIndex } from '../../ports/jobs';
import type { MediaStore } from '../../ports/media-store';
import { ProviderRefused } from '../../ports/model-provider';
import { refundedError } from '../../domain/job-messages';
import { pngSize } from '../../domain/png';
import type { PredictionRequest, SubmitDeps } from './submit-prediction';
import { submitOrQueue } from './submit-or-queue';
import { checkPrompt, type CheckPromptDeps } from './check-prompt';

export interface StartJobDeps extends SubmitDeps, CheckPromptDeps {
  jobs: JobStore;
  /** The caller's results, for a start image named by its media id (Animate). */
  media: MediaIndex;
  store: MediaStore;
  /** At most this many generations per user and UTC day (DAILY_GENERATION_CAP); none when undefined. */
  dailyGenerationCap?: number;
}

export interface JobRequest {
  kind: JobKind;
  model: string;
  version?: string;
  prompt: string;
  /** The prompt is the source result's, carried over (upscale), not the caller's words about the pictures given. */
  promptOfSource?: boolean;
  cost: number;
  /** Model input without the start image. */
  input: Record<string, unknown>;
  /** The pictures the model is given (start, end or source), each an upload or one of the caller's results. */
  pictures?: readonly PictureRef[];
  /** Create the prediction with `Prefer: wait` for this many seconds (a fast model: the result comes in the answer). */
  waitSeconds?: number;
  /** Model input that depends on the start (or source) image's size (e.g. Wan's max_area follows its orientation). */
  inputForImage?: (size: ImageSize) => Record<string, unknown>;
  /** A batch of images (the registry's `seeds`): one prediction per seed, side by side, under this one job and charge. */
  seeds?: readonly number[];
  /** A clip's later segments (the registry's `continuation`): each continues from the one before's last frame. */
  continuation?: readonly (PredictionRequest & { inputForImage?: (size: ImageSize) => Record<string, unknown> })[];
  options: Record<string, string | number | boolean>;
}

/** A picture a request names for one of its model's image inputs, and the model input field its URL goes to. */
export interface PictureRef {
  input: ImageInputId;
  field: string;
  /** An upload's key (POST /api/uploads) ... */
  upload?: string;
  /** ... or one of the caller's image results (Animate, edit, upscale: no re-upload). */
  mediaId?: string;
}

export interface ImageSize {
  width: number;
  height: number;
}

const START_IMAGE_URL_SECONDS = 15 * 60;

/**
 * The start image must be the caller's own upload: a PNG at most maxLongSide on its long side. Returns a
 * short-lived URL for the model, and the image's size.
 */
async function startImage(deps: StartJobDeps, owner: string, key: string, maxLongSide: number): Promise<ImageSize & { url: string }> {
  if (!objectKeys.isOwnImage(owner, key)) throw new InvalidInput('Unknown start image. Upload it again.');
  const { url, ...size } = await storedImage(deps, key);
  if (Math.max(size.width, size.height) > maxLongSide) {
    throw new InvalidInput(`The start image must be at most ${maxLongSide} pixels on its long side.`);
  }
  return { url, ...size };
}

/**
 * One of the owner's image results as the start image. Its size is not held to the upload limit: that limit keeps
 * uploads small (the model scales any start image into its own frame, e.g. Wan's max_area), and a result is a file
 * we made, already in the bucket; its bytes and format are checked as an upload's are.
 */
async function startMedia(deps: StartJobDeps, owner: string, mediaId: string): Promise<ImageSize & { url: string }> {
  const item = await deps.media.get(owner, mediaId);
  if (!item) throw new NotFound(Messages.mediaNotFound);
  if (item.type !== 'image') throw new InvalidInput(Messages.startMediaNotImage);
  return storedImage(deps, item.key);
}

/** Which pictures a job was given, stored with its options (and so shown with its result: an edit records its source). */
function pictureOptions(pictures: readonly PictureRef[]): Record<string, string | boolean> {
  const out: Record<string, string | boolean> = {};
  for (const p of pictures) {
    if (p.input === 'startImage') {
      out.startImage = true;
      if (p.mediaId) out.startMediaId = p.mediaId;
    } else if (p.input === 'endImage') {
      out.endImage = true;
      if (p.mediaId) out.endMediaId = p.mediaId;
    } else if (p.mediaId) out.sourceMediaId = p.mediaId;
  }
  return out;
}

/** A stored PNG's size (read from its header) and a short-lived URL the model can fetch it from. */
async function storedImage(deps: StartJobDeps, key: string): Promise<ImageSize & { url: string }> {
  const head = await deps.store.head(key, 32);
  if (!head) throw new InvalidInput('Unknown start image. Upload it again.');
  if (head.size > MAX_START_IMAGE_BYTES) throw new InvalidInput(Messages.imageTooLarge);
  const size = pngSize(head.start);
  if (!size || size.width < 1 || size.height < 1) throw new InvalidInput(Messages.invalidImage);
  const { width, height } = size;
  return { url: await deps.store.presignGet(key, START_IMAGE_URL_SECONDS), width, height };
}

/** The registry's limit on a start image's long side for this model (what the web resizes to before uploading). */
function startImageLongSideOf(model: string): number {
  const def = modelOfReplicate(model);
  if (!def) throw new Error(`No registry entry for ${model}`);
  return def.startImageLongSide;
}

/**
 * `balance`: the owner's balance as just read (getOrCreateAccount), if known; it saves the charge a read. `requestKey`:
 * the call's Idempotency-Key: a retry of a call whose charge was made answers that call's job, charged once.
 */
export async function startJob(deps: StartJobDeps, owner: string, req: JobRequest, balance?: number, requestKey?: string) {
  const onPicture = Boolean(req.pictures?.length) && !req.promptOfSource;
  checkPrompt(deps, req.prompt, typeof req.options.negativePrompt === 'string' ? req.options.negativePrompt : undefined, onPicture);
  const input = { ...req.input };
  let size: ImageSize | undefined;
  for (const picture of req.pictures ?? []) {
    const image = picture.mediaId
      ? await startMedia(deps, owner, picture.mediaId)
      : await startImage(deps, owner, picture.upload!, startImageLongSideOf(req.model));
    input[picture.field] = image.url;
    // The start (or source) picture sets the frame; an end frame follows it.
    if (picture.input === 'endImage') continue;
    size = { width: image.width, height: image.height };
    Object.assign(input, req.inputForImage?.(size));
  }
  // Later segments are stored with the job as data: their image-dependent input is settled now.
  const continuation = req.continuation?.map(({ inputForImage, ...c }) => ({ ...c, input: { ...c.input, ...(size ? inputForImage?.(size) : {}) } }));

  const now = deps.now();
  const job: Job = {
    id: newId(now),
    owner,
    kind: req.kind,
    model: req.model,
    prompt: req.prompt,
    options: { ...req.options, ...pictureOptions(req.pictures ?? []) },
    cost: req.cost,
    status: 'pending',
    createdAt: now.toISOString(),
    countsActive: true,
    ...(requestKey ? { requestKey } : {}),
    ...(continuation?.length ? { continuation } : {}),
    ...(req.seeds?.length ? { batch: req.seeds.map((seed) => ({ seed })) } : {}),
  };
  const charged = await deps.jobs.createCharged(job, balance, deps.dailyGenerationCap, MAX_ACTIVE_JOBS);
  // Submitted (or queued) by the call that charged it, or by the reconciler if that call died before asking.
  if ('started' in charged) return { predictionId: charged.started, credits: charged.balance };
  if ('dailyCapReached' in charged) {
    // The cap counts a UTC day: it lifts at the next midnight UTC.
    const retryAfterSeconds = Math.ceil((Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1) - now.getTime()) / 1000);
    throw new RateLimited(Messages.dailyGenerationCap(deps.dailyGenerationCap ?? 0), { retryAfterSeconds });
  }
  if ('queueFull' in charged) throw new RateLimited(Messages.tooManyActiveJobs(MAX_ACTIVE_JOBS));
  // A deletion of the account got there first: nothing was charged, and no prediction is made for an account that goes.
  if ('accountClosing' in charged) throw new Conflict(Messages.accountBeingDeleted);
  // Below zero only after a refund took back spent credits: say so, generation waits until the balance is positive.
  if (!charged.ok) throw new NotEnoughCredits(req.cost, charged.balance < 0 ? Messages.negativeBalance : undefined);

  // A busy or silent provider queues the charged job (steps/submit-or-queue.ts) instead of failing the start.
  const submitted = await submitOrQueue(deps, job, {
    model: req.model,
    ...(req.version ? { version: req.version } : {}),
    input,
    ...(req.waitSeconds ? { waitSeconds: req.waitSeconds } : {}),
  });
  // Not refunded: already ended, its webhook came before the create call's answer and settled it, so the job stands.
  if (!submitted.ok && 'refunded' in submitted && submitted.refunded) {
    if (submitted.error instanceof ProviderRefused) throw new InvalidInput(submitted.error.message);
    throw new ProviderError(refundedError(submitted.reason, job.cost));
  }
  return { predictionId: job.id, credits: charged.balance };
}
