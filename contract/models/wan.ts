import type { ModelDef, ResolvedOptions } from './types';
import { WAN_COST } from './wan-price';

export const WAN_T2V_MODEL = {
  id: 'wavespeedai/wan-2.1-t2v-480p',
  schema: 'wavespeedai__wan-2.1-t2v-480p@64a5340df74fa6e7b162b7c59c241a3f39b09abdabe4ce1889c4a52f0171abed.json',
} as const;
export const WAN_I2V_MODEL = {
  id: 'wavespeedai/wan-2.1-i2v-480p',
  schema: 'wavespeedai__wan-2.1-i2v-480p@ae5bc519ee414f255f66c7ac22062e01bbbd6050c04f888d002d5ee0dc087a0c.json',
} as const;

/**
 * How a clip length maps onto Wan 2.1's inputs. The model takes at most 100 frames (81 give the best results) at
 * 5 to 24 fps, so a segment is 81 frames at 16 fps (5.06 s). A 10 s clip is two such segments: the second is
 * image-to-video from the first's last frame (same prompt and seed), and the two are joined without the repeated
 * frame: 161 frames at 16 fps, 10.06 s at normal speed.
 */
export const WAN_CLIP: Readonly<Record<number, { segments: number; num_frames: number; frames_per_second: number }>> = {
  5: { segments: 1, num_frames: 81, frames_per_second: 16 },
  10: { segments: 2, num_frames: 81, frames_per_second: 16 },
};
/** Image-to-video's frame area for each aspect ratio. */
const MAX_AREA: Readonly<Record<string, string>> = { '16:9': '832x480', '9:16': '480x832' };

export const wan: ModelDef = {
  slug: 'wan',
  kind: 'video',
  operation: 'generate',
  inputs: { prompt: { required: true }, images: { startImage: { label: 'Start image', required: false, from: 'any', field: 'image', hint: 'Optional. With a start image Wan animates it (image-to-video).' } } },
  name: 'Wan 2.1 (480p)',
  tagline: 'Text-to-video, or image-to-video from your own start frame.',
  strengths: [
    'Image-to-video: give it a start frame and it animates your own composition, colours and characters.',
    'Text-to-video when you have no image: the scene is built from the prompt alone.',
    '480p output, well suited to previews, storyboards and social posts.',
  ],
  upcoming: false,
  models: [WAN_I2V_MODEL, WAN_T2V_MODEL],
  acceptsStartImage: true,
  // Wan 2.1 480p renders within an 832x480 area: a larger start image is only shrunk again.
  startImageLongSide: 832,
  options: {
    aspectRatio: { kind: 'choice', label: 'Aspect ratio', values: ['16:9', '9:16'], default: '16:9', advanced: false },
    duration: { kind: 'choice', label: 'Duration', values: [5, 10], default: 5, advanced: false, valueLabel: (v) => `${v} seconds` },
    seed: { kind: 'seed', label: 'Seed', advanced: true },
  },
  // Billed per second of output: 9 cents, image-to-video's price (the higher of the two).
  providerCents: (o) => 9 * Number(o.duration),
  price: (o) => WAN_COST[Number(o.duration)]!,
  plan: (o: ResolvedOptions, prompt, hasImage) => {
    const { segments, ...clip } = WAN_CLIP[Number(o.duration)]!;
    const input = { prompt, ...clip, seed: Number(o.seed) };
    // With a start image the clip takes the image's shape: max_area follows its orientation, not the option.
    const areaOfImage = (size: { width: number; height: number }) => ({ max_area: MAX_AREA[size.height > size.width ? '9:16' : '16:9']! });
    // Each later segment continues from the one before's last frame, in the same orientation.
    const next = hasImage
      ? { model: WAN_I2V_MODEL, input, inputForImage: areaOfImage }
      : { model: WAN_I2V_MODEL, input: { ...input, max_area: MAX_AREA[String(o.aspectRatio)]! } };
    const continuation = Array.from({ length: segments - 1 }, () => next);
    const more = continuation.length ? { continuation } : {};
    if (!hasImage) return { model: WAN_T2V_MODEL, input: { ...input, aspect_ratio: String(o.aspectRatio) }, ...more };
    return { model: WAN_I2V_MODEL, input, inputForImage: areaOfImage, ...more };
  },
  shown: (o) => ({ duration: o.duration!, aspectRatio: o.aspectRatio!, seed: o.seed! }),
  typicalSeconds: 90,
  maxRunSeconds: 900,
  // Each segment renders num_frames; the join drops every later segment's first frame (a 10 s clip: 161 frames).
  videoLength: (o) => {
    const { segments, num_frames } = WAN_CLIP[Number(o.duration)]!;
    return { segmentFrames: num_frames, frames: segments * num_frames - (segments - 1) };
  },
};
