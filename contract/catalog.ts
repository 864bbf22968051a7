/**
 * The catalog: account-wide numbers, and look-ups of the model registry (contract/models/, the one source of each
 * model's options, prices and run times) by the Replicate id a job or a spec route names.
 */
export const SIGNUP_CREDITS = 10;
export const MAX_PROMPT_LENGTH = 1000;
export const MAX_START_IMAGE_BYTES = 5_242_880;
export const POLL_INTERVAL_MS = 5_000;
/** Generations one user may have running at once (the queue); the server enforces it in the charge transaction. */
export const MAX_ACTIVE_JOBS = 4;

import { MODELS, modelBySlug, modelOfReplicate } from './models';
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

export const WAN_I2V = WAN_I2V_MODEL.id;
export const WAN_T2V = WAN_T2V_MODEL.id;
export const PIXVERSE = PIXVERSE_MODEL.id;

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

export { WAN_CLIP } from './models/wan';

/** What a start image is uploaded for: the spec's image generator (`image`: SDXL), or any model that takes one (its registry slug). */
export const START_IMAGE_PURPOSES = ['image', ...MODELS.filter((m) => !m.upcoming && m.acceptsStartImage).map((m) => m.slug)] as [
  string,
  ...string[],
];
export type StartImagePurpose = string;

/** The long side (px) a start image may have for that purpose; the web app resizes to it before uploading. */
export function startImageLongSide(purpose: StartImagePurpose = 'image'): number {
  if (purpose === 'image') return IMAGE_MODEL.startImageLongSide;
  return modelBySlug(purpose)?.startImageLongSide ?? IMAGE_MODEL.startImageLongSide;
}
