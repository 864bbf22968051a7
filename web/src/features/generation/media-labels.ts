import { modelOfReplicate } from '../../../../contract/models';
import type { MediaItemView } from './media-api';

/** "SDXL", "Wan 2.1 (480p) · 5 s · from image", "Pixverse v4.5 · 8 s · 720p · Anime style". */
export function describeMedia(item: Pick<MediaItemView, 'type' | 'model' | 'options'>): string {
  // The registry's name of the model that made it; a model no longer in the registry by its Replicate id.
  const parts: string[] = [modelOfReplicate(item.model)?.name ?? item.model];
  const { duration, quality, startImage } = item.options;
  if (typeof duration === 'number') parts.push(`${duration} s`);
  if (typeof quality === 'string') parts.push(quality);
  if (startImage === true) parts.push('from image');
  // The style chosen (Pixverse's), in the words the generator offered it in.
  const style = item.options.style;
  if (typeof style === 'string' && style !== 'None') {
    const def = modelOfReplicate(item.model)?.options.style;
    parts.push(`${def?.kind === 'choice' && def.valueLabel ? def.valueLabel(style) : style} style`);
  }
  return parts.join(' · ');
}

/** "Seed: 4242": shown with every result that has one, so it can be made again. */
export function seedLabel(options: MediaItemView['options'] | undefined): string | undefined {
  return typeof options?.seed === 'number' ? `Seed: ${options.seed}` : undefined;
}
