import { SHOWCASE, type ShowcaseClip, type ShowcaseRender, type ShowcaseStill } from '../../../../contract/showcase';
import { modelOfReplicate } from '../../../../contract/models';
import { SHOWCASE_RENDERS } from './showcase-renders';

/**
 * The marketing pages' media: what each file was made from (contract/showcase.ts) and by what
 * (showcase-renders.ts, written by `npm run showcase`). Until real renders replace the local simulator's
 * placeholders, the captions say they are placeholders and describe no scene.
 */
export interface MediaClip {
  /** Public paths of the MP4 and its first frame as a poster. */
  video: string;
  poster: string;
  /** The rendered size (laid out at its aspect ratio). */
  width: number;
  height: number;
  prompt: string;
  /** A placeholder from the Replicate simulator (moving shapes and the prompt's text), not the model's output. */
  placeholder: boolean;
  /** The model that made it, by the name the site uses, and when (ISO): a real render says it is AI-generated. */
  madeWith: string;
  madeAt: string;
}

/** Who made a render and when, as its AI-generated label says. */
const madeBy = (r: ShowcaseRender) => ({ madeWith: modelOfReplicate(r.model)?.name ?? r.model, madeAt: r.renderedAt });

function render(id: string): ShowcaseRender {
  const r = SHOWCASE_RENDERS[id];
  if (!r) throw new Error(`${id} has not been rendered: run npm run showcase`);
  return r;
}

function clip(item: ShowcaseClip): MediaClip {
  const r = render(item.id);
  return { video: item.file, poster: item.poster, width: r.width, height: r.height, prompt: item.prompt, placeholder: r.provider !== 'replicate', ...madeBy(r) };
}

export const HERO_CLIP: MediaClip = clip(SHOWCASE.hero);

/** The loop beside the sign-in forms. */
export const AUTH_CLIP: MediaClip = clip(SHOWCASE.authLoop);

/** The hero's accessible name: the prompt it was made from, or what a placeholder really shows. */
export const heroLabel = (c: MediaClip) =>
  c.placeholder ? 'Placeholder clip: moving coloured shapes standing in for a Wan 2.1 render, not model output' : `Sample clip made with Wan 2.1: ${c.prompt}`;

export interface ExampleClip extends MediaClip {
  id: string;
  /** The registry id of the model that made it (the page groups examples by it). */
  family: string;
  model: string;
  title: string;
  /** What the example shows off. */
  note: string;
  duration: number;
  quality?: string;
  /** Image-to-video: the start frame the clip was made from, shown beside it. */
  startImage?: { src: string; alt: string; width: number; height: number } & Pick<MediaClip, 'placeholder' | 'madeWith' | 'madeAt'>;
}

function still(item: ShowcaseStill): NonNullable<ExampleClip['startImage']> {
  const r = render(item.id);
  const alt =
    r.provider === 'replicate'
      ? `The start image: ${item.prompt}`
      : 'Placeholder start image: translucent shapes on a colour gradient with the prompt written on it, not model output';
  return { src: item.file, alt, width: r.width, height: r.height, placeholder: r.provider !== 'replicate', ...madeBy(r) };
}

const example = (item: ShowcaseClip, copy: Pick<ExampleClip, 'title' | 'note'>, start?: ShowcaseStill): ExampleClip => ({
  ...clip(item),
  ...copy,
  id: item.id,
  family: modelOfReplicate(item.model)?.slug ?? item.model,
  model: item.model,
  duration: item.duration,
  ...(item.quality ? { quality: item.quality } : {}),
  ...(start ? { startImage: still(start) } : {}),
});

export const EXAMPLES: readonly ExampleClip[] = [
  example(SHOWCASE.wanT2v, { title: 'Wan 2.1, text to video', note: 'No start image: Wan builds the whole scene from the prompt.' }),
  example(
    SHOWCASE.wanI2v,
    { title: 'Wan 2.1, image to video', note: 'A start image keeps the composition and colours; the prompt describes the motion.' },
    SHOWCASE.wanI2vStart,
  ),
  example(SHOWCASE.pixverse720, { title: 'Pixverse v4.5, 720p', note: 'The default quality: a good balance of detail and price for social clips.' }),
  example(SHOWCASE.pixverse540Long, { title: 'Pixverse v4.5, 540p, long clip', note: 'The long clip runs 8 seconds at double the 5-second price.' }),
];

/** Whether any example on /example is still a placeholder. */
export const EXAMPLES_ARE_PLACEHOLDERS = EXAMPLES.some((e) => e.placeholder || e.startImage?.alt.startsWith('Placeholder'));
