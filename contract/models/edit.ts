import type { ModelDef } from './types';

export const FLUX_KONTEXT_MODEL = { id: 'black-forest-labs/flux-kontext-pro', schema: 'black-forest-labs__flux-kontext-pro@official.json' } as const;

/** Edit by prompt (FLUX.1 Kontext [pro]): one of the caller's pictures changed as the prompt says, at its own size. */
export const edit: ModelDef = {
  slug: 'edit',
  kind: 'image',
  operation: 'edit',
  inputs: { prompt: { required: true }, images: { image: { label: 'Picture to edit', required: true, from: 'result', field: 'input_image' } } },
  name: 'Edit by prompt',
  madeWith: 'FLUX.1 Kontext [pro]',
  tagline: 'Say what to change in one of your pictures.',
  strengths: [
    'FLUX.1 Kontext [pro] changes what you ask for and keeps the rest: the scene, the faces, the size.',
    'From any image of yours, in the viewer or the generator; the result says what it was edited from.',
  ],
  upcoming: false,
  models: [FLUX_KONTEXT_MODEL],
  acceptsStartImage: false,
  startImageLongSide: 0,
  options: { seed: { kind: 'seed', label: 'Seed', advanced: true } },
  // FLUX Kontext pro: 4 cents an image.
  providerCents: () => 4,
  price: () => 2,
  plan: (o, prompt) => ({
    model: FLUX_KONTEXT_MODEL,
    input: { prompt, aspect_ratio: 'match_input_image', seed: Number(o.seed), output_format: 'png' },
  }),
  shown: (o) => ({ seed: o.seed! }),
  typicalSeconds: 10,
  maxRunSeconds: 300,
};
