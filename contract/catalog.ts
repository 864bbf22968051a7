/**
 * The catalog: account-wide numbers, and views of the model registry (contract/models/, the one source of each
 * model's options, prices and run times) in the shapes the pages and older callers use.
 */
export const SIGNUP_CREDITS = 10;
export const MAX_PROMPT_LENGTH = 1000;
export const MAX_START_IMAGE_BYTES = 5_242_880;
export const POLL_INTERVAL_MS = 5_000;
/** Generations one user may have running at once (the queue); the server enforces it in the charge transaction. */
export const MAX_ACTIVE_JOBS = 4;

import { MODELS, modelBySlug, modelOfReplicate, priceOf, type PriceResult } from './models';
import { IMAGE_COST, sdxl } from './models/sdxl';
import { PIXVERSE_MODEL } from './models/pixverse';
import { WAN_I2V_MODEL, WAN_T2V_MODEL } from './models/wan';

export { IMAGE_COST };

/** The image model (spec: SDXL), as older callers name it; its options and price live in contract/models/sdxl.ts. */
export const IMAGE_MODEL = {
  id: sdxl.models[0]!.id,
  version: sdxl.models[0]!.version!,
  label: sdxl.name,
  cost: IMAGE_COST,
  /** The default request's fixed input (768x768, 25 steps, refiner, no watermark) without prompt and seed. */
  input: (({ prompt: _p, seed: _s, ...rest }) => rest)(sdxl.plan({ aspectRatio: '1:1', count: 1, seed: 0 }, '', false).input) as {
    width: number;
    height: number;
  } & Record<string, unknown>,
  startImageLongSide: sdxl.startImageLongSide,
  typicalSeconds: sdxl.typicalSeconds,
  maxRunSeconds: sdxl.maxRunSeconds,
} as const;

export type VideoFamilyId = 'wan' | 'pixverse' | 'kling';
export type PixverseQuality = '540p' | '720p' | '1080p';

export const WAN_I2V = WAN_I2V_MODEL.id;
export const WAN_T2V = WAN_T2V_MODEL.id;
export const PIXVERSE = PIXVERSE_MODEL.id;
export const VIDEO_MODEL_IDS = [WAN_I2V, WAN_T2V, PIXVERSE] as const;
export type VideoModelId = (typeof VIDEO_MODEL_IDS)[number];

/** A video model as the pages list it: a view of its registry entry (contract/models/). */
export interface VideoFamily {
  id: VideoFamilyId;
  name: string;
  tagline: string;
  upcoming: boolean;
  /** Replicate identifiers this family runs on. */
  models: readonly VideoModelId[];
  durations: readonly number[];
  qualities: readonly PixverseQuality[];
  defaultQuality?: PixverseQuality;
  acceptsStartImage: boolean;
  /** Start images are sent as PNG at most this many pixels on the long side (0: no start image). */
  startImageLongSide: number;
  /** Typical run time in seconds, for the progress estimate. */
  typicalSeconds: number;
  /** The longest a prediction may run before the reconciler stops it and refunds the job. */
  maxRunSeconds: number;
}

const choiceValues = (slug: string, id: string) => {
  const o = modelBySlug(slug)?.options[id];
  return o?.kind === 'choice' ? o.values : [];
};

export const VIDEO_FAMILIES: readonly VideoFamily[] = MODELS.filter((m) => m.kind === 'video').map((m) => {
  const quality = m.options.quality;
  return {
    id: m.slug as VideoFamilyId,
    name: m.name,
    tagline: m.tagline,
    upcoming: m.upcoming,
    models: m.models.map((r) => r.id as VideoModelId),
    durations: choiceValues(m.slug, 'duration').map(Number),
    qualities: choiceValues(m.slug, 'quality').map(String) as PixverseQuality[],
    ...(quality?.kind === 'choice' ? { defaultQuality: quality.default as PixverseQuality } : {}),
    acceptsStartImage: m.acceptsStartImage,
    startImageLongSide: m.startImageLongSide,
    typicalSeconds: m.typicalSeconds,
    maxRunSeconds: m.maxRunSeconds,
  };
});

export function familyOf(model: string): VideoFamily | undefined {
  return VIDEO_FAMILIES.find((f) => !f.upcoming && (f.models as readonly string[]).includes(model));
}

export type VideoPriceResult = PriceResult;

/** The price of one video with its default aspect ratio and style, or why that combination cannot be ordered. */
export function priceVideo(model: string, duration: number, quality?: string): VideoPriceResult {
  const def = modelOfReplicate(model);
  if (!def || def.kind !== 'video') return { ok: false, reason: `Unknown model: ${model}.` };
  return priceOf(def, { duration, quality });
}

/** The longest a prediction of this model may run (ms): past it (and a grace period), a job is stopped and refunded. */
export function maxRunMsOf(model: string): number {
  const def = modelOfReplicate(model);
  // An unknown model (e.g. one retired from the catalog) gets the longest bound of any model.
  return (def?.maxRunSeconds ?? Math.max(...MODELS.map((m) => m.maxRunSeconds))) * 1000;
}

/** A prediction's typical run time for this model (ms); an unknown model's is 0 (asked about at once). */
export function typicalMsOf(model: string): number {
  return (modelOfReplicate(model)?.typicalSeconds ?? 0) * 1000;
}

/** The largest provider output we store (bytes); the copy stops as soon as a stream exceeds it. */
export const MAX_OUTPUT_BYTES = { image: 20 * 1024 * 1024, video: 200 * 1024 * 1024 } as const;

export { WAN_CLIP } from './models/wan';

/** What a start image is uploaded for: the image generator or one of the video models that takes one (registry slugs). */
export const START_IMAGE_PURPOSES = ['image', ...MODELS.filter((m) => m.kind === 'video' && !m.upcoming && m.acceptsStartImage).map((m) => m.slug)] as [
  string,
  ...string[],
];
export type StartImagePurpose = string;

/** The long side (px) a start image may have for that purpose; the web app resizes to it before uploading. */
export function startImageLongSide(purpose: StartImagePurpose = 'image'): number {
  if (purpose === 'image') return IMAGE_MODEL.startImageLongSide;
  return modelBySlug(purpose)?.startImageLongSide ?? IMAGE_MODEL.startImageLongSide;
}
