/**
 * The public site's media (hero clip, the /example clips and start image, the sign-in pages' loop): the prompts and
 * settings each is made from, in one place. `npm run showcase` (scripts/showcase.ts) runs every entry through the
 * configured provider (real Replicate with REPLICATE_API_TOKEN, else the local Replicate simulator) with the inputs
 * the app itself sends, writes the files under web/public/media, and records what made them in
 * web/src/features/marketing/showcase-renders.ts, which the captions read: the simulator's renders are placeholders
 * (moving shapes and the prompt's text), and no caption describes their scene.
 */
import { PIXVERSE, WAN_I2V, WAN_T2V } from './catalog';

/** A still made by the image model (SDXL, the app's image settings). */
export interface ShowcaseStill {
  id: string;
  kind: 'image';
  prompt: string;
  seed: number;
  /** Public path of the WebP written. */
  file: string;
}

/** A clip made by a video model, with the settings a user picks in the app. */
export interface ShowcaseClip {
  id: string;
  kind: 'video';
  /** The Replicate model (owner/name) of a video entry in contract/models/. */
  model: string;
  prompt: string;
  duration: number;
  quality?: string;
  seed: number;
  /** Image to video: the id of the still it starts from (rendered first). */
  startImage?: string;
  /** Public paths of the MP4 and its first frame (WebP). */
  file: string;
  poster: string;
}

export type ShowcaseItem = ShowcaseStill | ShowcaseClip;

/** What made one file: written by `npm run showcase`. */
export interface ShowcaseRender {
  /** `simulator`: a placeholder from the local Replicate simulator; `replicate`: the model's real output. */
  provider: 'simulator' | 'replicate';
  model: string;
  predictionId: string;
  width: number;
  height: number;
  bytes: number;
  renderedAt: string;
}

export const SHOWCASE = {
  hero: {
    id: 'hero',
    kind: 'video',
    model: WAN_T2V,
    prompt: 'Aurora ribbons folding over a glass city at dusk, slow aerial drift',
    duration: 5,
    seed: 2025,
    file: '/media/hero.mp4',
    poster: '/media/hero-poster.webp',
  },
  wanT2v: {
    id: 'wan-t2v',
    kind: 'video',
    model: WAN_T2V,
    prompt: 'A paper boat drifting across a neon-lit puddle at night, rain ripples, reflections of city signs',
    duration: 5,
    seed: 11,
    file: '/media/example-wan-t2v.mp4',
    poster: '/media/example-wan-t2v.webp',
  },
  wanI2vStart: {
    id: 'wan-i2v-start',
    kind: 'image',
    prompt: 'A white lighthouse on a rocky headland above a stormy sea, dramatic clouds, photograph',
    seed: 13,
    file: '/media/example-wan-i2v-start.webp',
  },
  wanI2v: {
    id: 'wan-i2v',
    kind: 'video',
    model: WAN_I2V,
    prompt: 'The lighthouse beam sweeps slowly across the waves as clouds roll past',
    duration: 5,
    seed: 12,
    startImage: 'wan-i2v-start',
    file: '/media/example-wan-i2v.mp4',
    poster: '/media/example-wan-i2v.webp',
  },
  pixverse720: {
    id: 'pixverse-720p',
    kind: 'video',
    model: PIXVERSE,
    prompt: 'Close-up of a hummingbird hovering by a red hibiscus flower, shallow depth of field',
    duration: 5,
    quality: '720p',
    seed: 21,
    file: '/media/example-pixverse-720p.mp4',
    poster: '/media/example-pixverse-720p.webp',
  },
  pixverse540Long: {
    id: 'pixverse-540p-long',
    kind: 'video',
    model: PIXVERSE,
    prompt: 'Time-lapse of clouds streaming over snowy mountain peaks, golden hour light',
    duration: 8,
    quality: '540p',
    seed: 22,
    file: '/media/example-pixverse-540p-long.mp4',
    poster: '/media/example-pixverse-540p-long.webp',
  },
  authLoop: {
    id: 'auth-loop',
    kind: 'video',
    model: WAN_T2V,
    prompt: 'Soft violet and cyan light drifting slowly through dark haze, abstract, calm, seamless loop',
    duration: 5,
    seed: 7,
    file: '/media/auth-loop.mp4',
    poster: '/media/auth-loop.webp',
  },
} as const satisfies Record<string, ShowcaseItem>;

/** Every entry, stills first (a clip may start from one). */
export const SHOWCASE_ITEMS: readonly ShowcaseItem[] = Object.values(SHOWCASE as Record<string, ShowcaseItem>).sort(
  (a, b) => (a.kind === 'image' ? 0 : 1) - (b.kind === 'image' ? 0 : 1),
);
