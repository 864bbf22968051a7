import type { ModelDef } from './types';

/** Kling 1.6: listed as coming soon (spec); nothing can be ordered. */
export const kling: ModelDef = {
  slug: 'kling',
  kind: 'video',
  name: 'Kling 1.6',
  tagline: 'Coming soon.',
  upcoming: true,
  models: [],
  modelFor: () => undefined,
  acceptsStartImage: false,
  startImageLongSide: 0,
  options: {},
  price: () => 0,
  plan: () => {
    throw new Error('Kling 1.6 is coming soon');
  },
  shown: () => ({}),
  typicalSeconds: 0,
  maxRunSeconds: 0,
  output: 'video',
  outputType: 'video/mp4',
};
