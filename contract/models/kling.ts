import { NEGATIVE_PROMPT_MAX } from './options';
import type { ModelDef } from './types';

export const KLING_MODEL = { id: 'kwaivgi/kling-v2.1', schema: 'kwaivgi__kling-v2.1@official.json' } as const;

/** Kling's modes as the generator names them: its standard mode renders 720p, its pro mode 1080p. */
const MODE: Readonly<Record<string, string>> = { '720p': 'standard', '1080p': 'pro' };
const COST: Readonly<Record<string, number>> = { '720p': 8, '1080p': 13 };

/** Kling 2.1: image-to-video from a start frame, and to an end frame in 1080p (its pro mode). */
export const kling: ModelDef = {
  slug: 'kling',
  kind: 'video',
  operation: 'generate',
  inputs: {
    prompt: { required: true },
    images: {
      startImage: { label: 'Start image', required: true, from: 'any', field: 'start_image', hint: 'Required. The clip starts from this frame.' },
      endImage: { label: 'End image', required: false, from: 'any', field: 'end_image', hint: 'Optional, in 1080p. The clip ends on this frame.' },
    },
  },
  name: 'Kling 2.1',
  tagline: 'Cinematic motion from your start frame, to an end frame if you like.',
  strengths: [
    'Cinematic camera work from a start frame you give it.',
    'In 1080p it can also end on a frame you choose, so a clip lands exactly where you want it.',
    '720p or 1080p, 5 or 10 seconds.',
  ],
  upcoming: false,
  models: [KLING_MODEL],
  acceptsStartImage: true,
  // As Pixverse: enough for 1080p without a PNG photo going over the 5 MB upload limit.
  startImageLongSide: 1280,
  options: {
    quality: { kind: 'choice', label: 'Quality', values: ['720p', '1080p'], default: '720p', advanced: false },
    duration: { kind: 'choice', label: 'Duration', values: [5, 10], default: 5, advanced: false, valueLabel: (v) => `${v} seconds` },
    negativePrompt: { kind: 'text', label: 'Negative prompt', maxLength: NEGATIVE_PROMPT_MAX, advanced: true },
  },
  refuseImages: (o, given) => (given.has('endImage') && o.quality !== '1080p' ? 'An end image needs 1080p quality.' : undefined),
  // Billed per second of output: 5 cents in its standard mode (720p), 9 in pro (1080p).
  providerCents: (o) => (o.quality === '1080p' ? 9 : 5) * Number(o.duration),
  price: (o) => (Number(o.duration) === 10 ? 2 * COST[String(o.quality)]! : COST[String(o.quality)]!),
  plan: (o, prompt) => ({
    model: KLING_MODEL,
    input: {
      prompt,
      mode: MODE[String(o.quality)]!,
      duration: Number(o.duration),
      ...(o.negativePrompt ? { negative_prompt: String(o.negativePrompt) } : {}),
    },
  }),
  shown: (o) => ({ duration: o.duration!, quality: o.quality!, ...(o.negativePrompt ? { negativePrompt: o.negativePrompt } : {}) }),
  typicalSeconds: 120,
  maxRunSeconds: 900,
  // Both modes render 24 fps; the clip is as long as asked.
  videoLength: (o) => ({ seconds: Number(o.duration) }),
};
