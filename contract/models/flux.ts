import { batchSeeds } from './options';
import type { ModelDef, ResolvedOptions } from './types';

export const FLUX_SCHNELL_MODEL = { id: 'black-forest-labs/flux-schnell', schema: 'black-forest-labs__flux-schnell@official.json' } as const;
export const FLUX_PRO_MODEL = { id: 'black-forest-labs/flux-1.1-pro', schema: 'black-forest-labs__flux-1.1-pro@official.json' } as const;

/** The aspect ratios both FLUX models take (their schemas list more; these are the ones the generators offer). */
const ASPECT_RATIOS = ['1:1', '16:9', '9:16', '4:3', '3:4'];
const prompted = { prompt: { required: true }, images: {} } as const;
const shown = (o: ResolvedOptions) => ({ aspectRatio: o.aspectRatio!, seed: o.seed!, ...(o.count !== undefined ? { count: o.count } : {}) });

/** FLUX.1 [schnell]: four steps, about a second a picture; so fast that the create call waits for the result. */
export const fluxFast: ModelDef = {
  slug: 'flux-fast',
  kind: 'image',
  operation: 'generate',
  inputs: prompted,
  name: 'FLUX Fast',
  tagline: 'A picture in about a second.',
  strengths: [
    'Four steps of FLUX.1 [schnell]: the result is usually back before the page could ask for it.',
    'Good for trying out prompts and compositions before a slower, finer model.',
  ],
  upcoming: false,
  models: [FLUX_SCHNELL_MODEL],
  acceptsStartImage: false,
  startImageLongSide: 0,
  options: {
    aspectRatio: { kind: 'choice', label: 'Aspect ratio', values: ASPECT_RATIOS, default: '1:1', advanced: false },
    count: { kind: 'choice', label: 'Images', values: [1, 2, 3, 4], default: 1, advanced: true },
    seed: { kind: 'seed', label: 'Seed', advanced: true },
  },
  // $0.003 an image, counted as a cent.
  providerCents: (o) => 1 * Number(o.count),
  price: (o) => Number(o.count),
  plan: (o, prompt, _hasImage, seedChosen) => ({
    model: FLUX_SCHNELL_MODEL,
    // PNG: every saved image is checked as the PNG its entry promises (the model's default is WebP). One image a
    // prediction, each with its own seed (`seeds`), all created at once with `Prefer: wait`. `go_fast` (the schema's
    // default, true) runs fp8 weights, under which Replicate documents the outputs as not deterministic even with a
    // seed (replicate/cog-flux#49): a seed the caller chose runs bf16 (`go_fast: false`), so the same seed gives the
    // same picture again; a drawn seed keeps the fast path.
    input: { prompt, aspect_ratio: String(o.aspectRatio), num_outputs: 1, seed: Number(o.seed), output_format: 'png', ...(seedChosen ? { go_fast: false } : {}) },
    ...(Number(o.count) > 1 ? { seeds: batchSeeds(Number(o.seed), Number(o.count)) } : {}),
  }),
  shown,
  waitSeconds: 5,
  typicalSeconds: 2,
  maxRunSeconds: 120,
};

/** FLUX 1.1 [pro]: Black Forest Labs' high-quality model, one picture a prediction. */
export const fluxPro: ModelDef = {
  slug: 'flux-pro',
  kind: 'image',
  operation: 'generate',
  inputs: prompted,
  name: 'FLUX 1.1 Pro',
  tagline: 'Detailed, faithful pictures: our high-quality model.',
  strengths: [
    'FLUX 1.1 [pro] follows long, detailed prompts closely.',
    'Fine detail and natural light, for the picture you keep.',
  ],
  upcoming: false,
  models: [FLUX_PRO_MODEL],
  acceptsStartImage: false,
  startImageLongSide: 0,
  options: {
    aspectRatio: { kind: 'choice', label: 'Aspect ratio', values: ASPECT_RATIOS, default: '1:1', advanced: false },
    seed: { kind: 'seed', label: 'Seed', advanced: true },
  },
  // 4 cents an image.
  providerCents: () => 4,
  price: () => 2,
  plan: (o, prompt) => ({
    model: FLUX_PRO_MODEL,
    input: { prompt, aspect_ratio: String(o.aspectRatio), seed: Number(o.seed), output_format: 'png' },
  }),
  shown,
  typicalSeconds: 10,
  maxRunSeconds: 300,
};
