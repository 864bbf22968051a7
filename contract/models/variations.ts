import type { ModelDef } from './types';

/**
 * Variations: one of the caller's pictures made again by its own model, with its prompt and settings and a new seed.
 * Runs no model of its own (`rerun`): the source's entry plans and prices it.
 */
export const variations: ModelDef = {
  slug: 'variations',
  kind: 'image',
  operation: 'variations',
  rerun: true,
  inputs: { prompt: undefined, images: { image: { label: 'Picture to vary', required: true, from: 'result', field: 'image' } } },
  name: 'Variations',
  tagline: 'New takes on one of your pictures: same prompt and settings, new seeds.',
  strengths: ['One click from any image you made: its own model runs again with a new seed.', 'Priced as the picture it varies.'],
  upcoming: false,
  models: [],
  acceptsStartImage: false,
  startImageLongSide: 0,
  options: {},
  price: () => 0,
  plan: () => {
    throw new Error('Variations are planned by the source model');
  },
  shown: () => ({}),
  typicalSeconds: 8,
  maxRunSeconds: 300,
};
