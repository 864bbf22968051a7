/**
 * A result's actions in the lightbox: where Reuse and Animate lead (reuse-urls.ts, which the generator pages read
 * back), and the model's name as the registry gives it.
 */
import { madeWithOf, modelOfReplicate, type Operation } from '../../../../contract/models';
import type { MediaItemView } from './media-api';
import { animateModelSlug, animateUrl as animateUrlOf } from './reuse-urls';

export { reuseUrl } from './reuse-urls';

/** Where Animate leads for this image, when the registry has a video model that takes a start image. */
export function animateUrl(media: Pick<MediaItemView, 'id'>): string | undefined {
  return animateModelSlug() ? animateUrlOf(media) : undefined;
}

/** The model's name as the registry gives it ("SDXL", "Wan 2.1"), or its Replicate id. */
export function modelName(model: string): string {
  return modelOfReplicate(model)?.name ?? model;
}

/** What made the file, for its label: the registry's name of the model that made it, and the operation it did. */
export function madeWith(model: string): { name: string; operation?: Operation } {
  return madeWithOf(model) ?? { name: model };
}
