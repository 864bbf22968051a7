import { batchSeeds, NEGATIVE_PROMPT_MAX } from './options';
import type { ModelDef, ResolvedOptions } from './types';

const SDXL = {
  id: 'stability-ai/sdxl',
  /** SDXL is a community model: Replicate needs the version id. */
  version: '7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc',
  schema: 'stability-ai__sdxl@7762fd07cf82c948538e41f63f77d685e02b063e37e496e96eefd46c929f9bdc.json',
} as const;

/**
 * The output size of each aspect ratio: about 768x768's pixel count (the spec's default), sides multiples of 8 as
 * SDXL's VAE needs, at most 1024 (SDXL's trained size).
 */
export const SDXL_SIZES: Readonly<Record<string, { width: number; height: number }>> = {
  '1:1': { width: 768, height: 768 },
  '16:9': { width: 1024, height: 576 },
  '9:16': { width: 576, height: 1024 },
  '4:3': { width: 896, height: 672 },
  '3:4': { width: 672, height: 896 },
};

/** The per-image price (spec: 1 credit an image). */
export const IMAGE_COST = 1;

const size = (o: ResolvedOptions) => SDXL_SIZES[String(o.aspectRatio)]!;

export const sdxl: ModelDef = {
  slug: 'sdxl',
  kind: 'image',
  operation: 'generate',
  inputs: { prompt: { required: true }, images: { startImage: { label: 'Start image', required: false, from: 'any', field: 'image', hint: 'Optional. The image is guided by this picture.' } } },
  name: 'SDXL',
  tagline: 'Images from a prompt, or guided by your own picture.',
  strengths: [
    'Stills at about 768 × 768 pixels in five aspect ratios, up to four per click.',
    'Give it a start image of your own and it restyles that picture from your prompt.',
    'A negative prompt and a fixed seed under Advanced, for repeatable results.',
  ],
  upcoming: false,
  models: [SDXL],
  acceptsStartImage: true,
  /** Start images are brought to this size on the long side (SDXL img2img keeps the input size). */
  startImageLongSide: 768,
  options: {
    aspectRatio: { kind: 'choice', label: 'Aspect ratio', values: ['1:1', '16:9', '9:16', '4:3', '3:4'], default: '1:1', advanced: false },
    count: { kind: 'choice', label: 'Images', values: [1, 2, 3, 4], default: 1, advanced: true },
    negativePrompt: { kind: 'text', label: 'Negative prompt', maxLength: NEGATIVE_PROMPT_MAX, advanced: true },
    seed: { kind: 'seed', label: 'Seed', advanced: true },
  },
  // Billed by GPU time: a 768x768 image in about 5 s on an L40S, half a cent (counted as one).
  providerCents: (o) => 1 * Number(o.count),
  price: (o) => IMAGE_COST * Number(o.count),
  plan: (o, prompt) => ({
    model: SDXL,
    input: {
      prompt,
      ...size(o),
      // One image a prediction, each with its own seed (the plan's `seeds`): a shown seed makes its image again.
      num_outputs: 1,
      seed: Number(o.seed),
      ...(o.negativePrompt ? { negative_prompt: String(o.negativePrompt) } : {}),
      refine: 'expert_ensemble_refiner',
      apply_watermark: false,
      num_inference_steps: 25,
    },
    ...(Number(o.count) > 1 ? { seeds: batchSeeds(Number(o.seed), Number(o.count)) } : {}),
  }),
  shown: (o) => ({ aspectRatio: o.aspectRatio!, ...size(o), seed: o.seed!, count: o.count!, ...(o.negativePrompt ? { negativePrompt: o.negativePrompt } : {}) }),
  typicalSeconds: 8,
  maxRunSeconds: 300,
};
