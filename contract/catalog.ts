/**
 * The model catalog: the one source of prices and options (spec section 9, DESIGN section 4).
 * The server charges from here and the web renders from here.
 */
export const SIGNUP_CREDITS = 10;
export const IMAGE_COST = 1;
export const MAX_PROMPT_LENGTH = 1000;
export const MAX_START_IMAGE_BYTES = 5_242_880;
export const POLL_INTERVAL_MS = 5_000;

export const IMAGE_MODEL = {
  id: 'stability-ai/sdxl',
  /** SDXL is a community model: Replicate needs the version id. */
  version: '7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc',
  label: 'SDXL',
  cost: IMAGE_COST,
  input: {
    width: 768,
    height: 768,
    refine: 'expert_ensemble_refiner',
    apply_watermark: false,
    num_inference_steps: 25,
  },
  /** Start images are brought to this size on the long side (SDXL img2img keeps the input size). */
  startImageLongSide: 768,
  typicalSeconds: 8,
  /** The longest a prediction may run before the reconciler stops it and refunds the job. */
  maxRunSeconds: 300,
} as const;

export type VideoFamilyId = 'wan' | 'pixverse' | 'kling';
export type PixverseQuality = '540p' | '720p' | '1080p';

export const WAN_I2V = 'wavespeedai/wan-2.1-i2v-480p';
export const WAN_T2V = 'wavespeedai/wan-2.1-t2v-480p';
export const PIXVERSE = 'pixverse/pixverse-v4.5';
export const VIDEO_MODEL_IDS = [WAN_I2V, WAN_T2V, PIXVERSE] as const;
export type VideoModelId = (typeof VIDEO_MODEL_IDS)[number];

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

export const VIDEO_FAMILIES: readonly VideoFamily[] = [
  {
    id: 'wan',
    name: 'Wan 2.1 (480p)',
    tagline: 'Text-to-video, or image-to-video from your own start frame.',
    upcoming: false,
    models: [WAN_I2V, WAN_T2V],
    durations: [5, 10],
    qualities: [],
    acceptsStartImage: true,
    // Wan 2.1 480p renders within an 832x480 area: a larger start image is only shrunk again.
    startImageLongSide: 832,
    typicalSeconds: 90,
    maxRunSeconds: 900,
  },
  {
    id: 'pixverse',
    name: 'Pixverse v4.5',
    tagline: 'Crisp motion at 540p, 720p or 1080p.',
    upcoming: false,
    models: [PIXVERSE],
    durations: [5, 8],
    qualities: ['540p', '720p', '1080p'],
    defaultQuality: '720p',
    acceptsStartImage: true,
    // Enough for the default 720p; a 1920 px PNG of a photo would often exceed the 5 MB upload limit.
    startImageLongSide: 1280,
    typicalSeconds: 60,
    maxRunSeconds: 600,
  },
  {
    id: 'kling',
    name: 'Kling 1.6',
    tagline: 'Coming soon.',
    upcoming: true,
    models: [],
    durations: [],
    qualities: [],
    acceptsStartImage: false,
    startImageLongSide: 0,
    typicalSeconds: 0,
    maxRunSeconds: 0,
  },
];

const WAN_COST: Record<number, number> = { 5: 8, 10: 16 };
const PIXVERSE_BASE_COST: Record<PixverseQuality, number> = { '540p': 6, '720p': 9, '1080p': 12 };
/** Replicate's Pixverse renders 1080p only at 5 s. */
const PIXVERSE_MAX_DURATION: Record<PixverseQuality, number> = { '540p': 8, '720p': 8, '1080p': 5 };

export function familyOf(model: string): VideoFamily | undefined {
  return VIDEO_FAMILIES.find((f) => !f.upcoming && (f.models as readonly string[]).includes(model));
}

/** The family with this id, available or upcoming. */
export function videoFamily(id: VideoFamilyId): VideoFamily {
  const family = VIDEO_FAMILIES.find((f) => f.id === id);
  if (!family) throw new Error(`No video family ${id}`);
  return family;
}

export type VideoPriceResult = { ok: true; cost: number } | { ok: false; reason: string };

/** The price of one video, or why that combination cannot be ordered. */
export function priceVideo(model: string, duration: number, quality?: string): VideoPriceResult {
  const family = familyOf(model);
  if (!family) return { ok: false, reason: `Unknown model: ${model}.` };
  if (!family.durations.includes(duration)) {
    return { ok: false, reason: `${family.name} supports durations of ${family.durations.join(' or ')} seconds.` };
  }
  if (family.id === 'wan') {
    if (quality !== undefined) return { ok: false, reason: 'Wan 2.1 has no quality option.' };
    return { ok: true, cost: WAN_COST[duration]! };
  }
  const q = (quality ?? family.defaultQuality) as PixverseQuality;
  if (!family.qualities.includes(q)) {
    return { ok: false, reason: `Quality must be one of ${family.qualities.join(', ')}.` };
  }
  if (duration > PIXVERSE_MAX_DURATION[q]) {
    return { ok: false, reason: `${q} is available only for ${PIXVERSE_MAX_DURATION[q]}-second clips.` };
  }
  const long = duration > family.durations[0]!;
  return { ok: true, cost: PIXVERSE_BASE_COST[q] * (long ? 2 : 1) };
}

/** The longest a prediction of this model may run (ms): past it (and a grace period), a job is stopped and refunded. */
export function maxRunMsOf(model: string): number {
  if (model === IMAGE_MODEL.id) return IMAGE_MODEL.maxRunSeconds * 1000;
  const family = familyOf(model);
  // An unknown model (e.g. one retired from the catalog) gets the longest bound of any model.
  return (family?.maxRunSeconds ?? Math.max(...VIDEO_FAMILIES.map((f) => f.maxRunSeconds))) * 1000;
}

/** The largest provider output we store (bytes); the copy stops as soon as a stream exceeds it. */
export const MAX_OUTPUT_BYTES = { image: 20 * 1024 * 1024, video: 200 * 1024 * 1024 } as const;

/** The Wan model to run: image-to-video when a start image is given. */
export function wanModelFor(hasImage: boolean): VideoModelId {
  return hasImage ? WAN_I2V : WAN_T2V;
}

/**
 * How a clip length maps onto Wan 2.1's inputs. The model takes 81 to 100 frames (81 give the best results) at
 * 5 to 24 fps, so a 5 s clip is 81 frames at 16 fps (5.06 s) and a 10 s clip the same 81 frames at 8 fps (10.1 s).
 */
export const WAN_CLIP: Readonly<Record<number, { num_frames: number; frames_per_second: number }>> = {
  5: { num_frames: 81, frames_per_second: 16 },
  10: { num_frames: 81, frames_per_second: 8 },
};

/** What a start image is uploaded for: the image generator or one of the video families. */
export const START_IMAGE_PURPOSES = ['image', 'wan', 'pixverse'] as const;
export type StartImagePurpose = (typeof START_IMAGE_PURPOSES)[number];

/** The long side (px) a start image may have for that purpose; the web app resizes to it before uploading. */
export function startImageLongSide(purpose: StartImagePurpose = 'image'): number {
  if (purpose === 'image') return IMAGE_MODEL.startImageLongSide;
  return videoFamily(purpose).startImageLongSide;
}
