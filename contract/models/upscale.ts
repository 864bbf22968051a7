import type { ModelDef } from './types';

export const REAL_ESRGAN_MODEL = {
  id: 'nightmareai/real-esrgan',
  /** A community model: Replicate needs the version id. */
  version: 'f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa',
  schema: 'nightmareai__real-esrgan@f121d640bd286e1fdc67f9799164c1d5be36ff74576ee11c803ae5b665dd46aa.json',
} as const;

/** Upscale (Real-ESRGAN): one of the caller's pictures at twice or four times its size; it takes no prompt. */
export const upscale: ModelDef = {
  slug: 'upscale',
  kind: 'image',
  operation: 'upscale',
  inputs: { prompt: undefined, images: { image: { label: 'Picture to upscale', required: true, from: 'result', field: 'image' } } },
  name: 'Upscale',
  madeWith: 'Real-ESRGAN',
  tagline: 'One of your pictures, two or four times larger.',
  strengths: ['Real-ESRGAN sharpens as it enlarges, for prints and large screens.', 'The same price at 2x and at 4x.'],
  upcoming: false,
  models: [REAL_ESRGAN_MODEL],
  acceptsStartImage: false,
  startImageLongSide: 0,
  options: { scale: { kind: 'choice', label: 'Scale', values: [2, 4], default: 2, advanced: false, valueLabel: (v) => `${v}x` } },
  // Billed by GPU time: well under a cent a run (counted as one).
  providerCents: () => 1,
  price: () => 1,
  plan: (o) => ({ model: REAL_ESRGAN_MODEL, input: { scale: Number(o.scale), face_enhance: false } }),
  shown: (o) => ({ scale: o.scale! }),
  waitSeconds: 5,
  typicalSeconds: 4,
  maxRunSeconds: 120,
};
