import { PIXVERSE, WAN_I2V, WAN_T2V, type PixverseQuality, type VideoModelId } from '../../../../contract/catalog';

/**
 * The marketing pages' media, made by the project itself: scripts/render-marketing-media.ts renders every
 * file listed here with the Replicate simulator's renderers and commits them under web/public/media/.
 * Change an entry, run `npx tsx scripts/render-marketing-media.ts`, commit the files.
 */
export interface MediaClip {
  /** Public paths of the MP4 and its first frame as a poster. */
  video: string;
  poster: string;
  /** Size the clip is rendered (and laid out) at. */
  width: number;
  height: number;
  seconds: number;
  prompt: string;
  seed: number;
}

export const HERO_CLIP: MediaClip = {
  video: '/media/hero.mp4',
  poster: '/media/hero-poster.webp',
  width: 768,
  height: 432,
  seconds: 6,
  prompt: 'Aurora ribbons folding over a glass city at dusk, slow aerial drift',
  seed: 2025,
};

export interface ExampleClip extends MediaClip {
  id: string;
  family: 'wan' | 'pixverse';
  model: VideoModelId;
  title: string;
  /** What the example shows off. */
  note: string;
  duration: number;
  quality?: PixverseQuality;
  /** Image-to-video: the start frame the clip was made from, shown beside it. */
  startImage?: { src: string; seed: number; alt: string };
}

export const EXAMPLES: readonly ExampleClip[] = [
  {
    id: 'wan-t2v',
    family: 'wan',
    model: WAN_T2V,
    title: 'Wan 2.1, text to video',
    note: 'No start image: Wan builds the whole scene from the prompt.',
    duration: 5,
    prompt: 'A paper boat drifting across a neon-lit puddle at night, rain ripples, reflections of city signs',
    seed: 11,
    video: '/media/example-wan-t2v.mp4',
    poster: '/media/example-wan-t2v.webp',
    width: 854,
    height: 480,
    seconds: 5,
  },
  {
    id: 'wan-i2v',
    family: 'wan',
    model: WAN_I2V,
    title: 'Wan 2.1, image to video',
    note: 'A start image keeps the composition and colours; the prompt describes the motion.',
    duration: 5,
    prompt: 'The lighthouse beam sweeps slowly across the waves as clouds roll past',
    seed: 12,
    video: '/media/example-wan-i2v.mp4',
    poster: '/media/example-wan-i2v.webp',
    width: 854,
    height: 480,
    seconds: 5,
    startImage: {
      src: '/media/example-wan-i2v-start.webp',
      seed: 13,
      alt: 'The start image: translucent circles and rounded squares over a blue colour gradient.',
    },
  },
  {
    id: 'pixverse-720p',
    family: 'pixverse',
    model: PIXVERSE,
    title: 'Pixverse v4.5, 720p',
    note: 'The default quality: a good balance of detail and price for social clips.',
    duration: 5,
    quality: '720p',
    prompt: 'Close-up of a hummingbird hovering by a red hibiscus flower, shallow depth of field',
    seed: 21,
    video: '/media/example-pixverse-720p.mp4',
    poster: '/media/example-pixverse-720p.webp',
    // Rendered smaller than 720p to keep this page light; generated clips come at full resolution.
    width: 640,
    height: 360,
    seconds: 5,
  },
  {
    id: 'pixverse-540p-long',
    family: 'pixverse',
    model: PIXVERSE,
    title: 'Pixverse v4.5, 540p, long clip',
    note: 'The long clip runs 8 seconds at double the 5-second price.',
    duration: 8,
    quality: '540p',
    prompt: 'Time-lapse of clouds streaming over snowy mountain peaks, golden hour light',
    seed: 22,
    video: '/media/example-pixverse-540p-long.mp4',
    poster: '/media/example-pixverse-540p-long.webp',
    width: 640,
    height: 360,
    seconds: 8,
  },
];
