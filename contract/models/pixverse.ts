import { NEGATIVE_PROMPT_MAX } from './options';
import type { ModelDef } from './types';

export const PIXVERSE_MODEL = { id: 'pixverse/pixverse-v4.5', schema: 'pixverse__pixverse-v4.5@official.json' } as const;

const BASE_COST: Readonly<Record<string, number>> = { '540p': 6, '720p': 9, '1080p': 12 };
const STYLE_LABELS: Readonly<Record<string, string>> = { None: 'None', anime: 'Anime', '3d_animation': '3D animation', clay: 'Clay', comic: 'Comic', cyberpunk: 'Cyberpunk' };

export const pixverse: ModelDef = {
  slug: 'pixverse',
  kind: 'video',
  operation: 'generate',
  inputs: { prompt: { required: true }, images: { startImage: { label: 'Start image', required: false, from: 'any', field: 'image', hint: 'Optional. The clip starts from this frame.' } } },
  name: 'Pixverse v4.5',
  tagline: 'Crisp motion at 540p, 720p or 1080p.',
  strengths: [
    'Sharper motion and detail, with a choice of 540p, 720p (the default) or 1080p.',
    'Works from a prompt, or from a start image when you want a specific first frame.',
    '1080p is offered for 5-second clips; 540p and 720p also come as 8-second clips.',
  ],
  upcoming: false,
  models: [PIXVERSE_MODEL],
  acceptsStartImage: true,
  // Enough for the default 720p; a 1920 px PNG of a photo would often exceed the 5 MB upload limit.
  startImageLongSide: 1280,
  options: {
    aspectRatio: { kind: 'choice', label: 'Aspect ratio', values: ['16:9', '9:16', '1:1'], default: '16:9', advanced: false },
    quality: { kind: 'choice', label: 'Quality', values: ['540p', '720p', '1080p'], default: '720p', advanced: false },
    duration: {
      kind: 'choice',
      label: 'Duration',
      values: [5, 8],
      default: 5,
      advanced: false,
      valueLabel: (v) => `${v} seconds`,
      note: "Replicate's Pixverse makes 5- or 8-second clips (not 10): the 8-second clip costs double, and 1080p is available only at 5 seconds.",
    },
    style: { kind: 'choice', label: 'Style', values: Object.keys(STYLE_LABELS), default: 'None', advanced: true, valueLabel: (v) => STYLE_LABELS[String(v)] ?? String(v) },
    negativePrompt: { kind: 'text', label: 'Negative prompt', maxLength: NEGATIVE_PROMPT_MAX, advanced: true },
    seed: { kind: 'seed', label: 'Seed', advanced: true },
  },
  /** Replicate's Pixverse renders 1080p only at 5 s. */
  unavailable: (o) => (o.quality === '1080p' && Number(o.duration) > 5 ? '1080p is available only for 5-second clips.' : undefined),
  // Billed per clip by quality, double for 8 s.
  providerCents: (o) => ({ '540p': 30, '720p': 40, '1080p': 80 })[String(o.quality)]! * (Number(o.duration) > 5 ? 2 : 1),
  price: (o) => BASE_COST[String(o.quality)]! * (Number(o.duration) > 5 ? 2 : 1),
  plan: (o, prompt) => ({
    model: PIXVERSE_MODEL,
    input: {
      prompt,
      quality: String(o.quality),
      duration: Number(o.duration),
      aspect_ratio: String(o.aspectRatio),
      // motion_mode 'smooth' would double the provider's price and is not offered.
      motion_mode: 'normal',
      style: String(o.style),
      seed: Number(o.seed),
      ...(o.negativePrompt ? { negative_prompt: String(o.negativePrompt) } : {}),
    },
  }),
  shown: (o) => ({
    duration: o.duration!,
    quality: o.quality!,
    aspectRatio: o.aspectRatio!,
    seed: o.seed!,
    ...(o.style !== 'None' ? { style: o.style! } : {}),
    ...(o.negativePrompt ? { negativePrompt: o.negativePrompt } : {}),
  }),
  typicalSeconds: 60,
  maxRunSeconds: 600,
  // Its API takes no frame rate: the clip is as long as asked, at the rate it picks.
  videoLength: (o) => ({ seconds: Number(o.duration) }),
};
