/**
 * Where a result's "Use prompt", "Use settings" and "Animate" actions lead (the lightbox and the generators' own
 * result lists): the generator that made it, told by the URL which media item to fill the form from. The pages read
 * these parameters back with `readReuseParams` (the media item is fetched by id: its URLs expire, its id does not).
 */
import { modelOfReplicate, VIDEO_MODELS, type ModelDef } from '../../../../contract/models';
import type { MediaItemView } from './media-api';
import type { OptionState } from './model-options';

export type ReuseUse = 'prompt' | 'settings';

/** The video model Animate opens: the first one in the registry that takes a start image. */
export function animateModelSlug(): string | undefined {
  return VIDEO_MODELS.find((m) => !m.upcoming && m.acceptsStartImage)?.slug;
}

/** `/generator?reuse=<id>&use=...` for an image; `/video-generator/<family>?reuse=<id>&use=...` for a video. */
export function reuseUrl(media: Pick<MediaItemView, 'id' | 'type' | 'model'>, use: ReuseUse): string {
  const query = `?reuse=${encodeURIComponent(media.id)}&use=${use}`;
  if (media.type === 'image') return `/generator${query}`;
  const slug = modelOfReplicate(media.model)?.slug ?? animateModelSlug();
  return `/video-generator/${slug}${query}`;
}

/** The first video model that accepts a start image, with this image as its start image (no re-upload). */
export function animateUrl(media: Pick<MediaItemView, 'id'>): string {
  return `/video-generator/${animateModelSlug()}?startMedia=${encodeURIComponent(media.id)}`;
}

/** What a generator page's URL asks it to fill in, if anything. */
export function readReuseParams(search: URLSearchParams): { reuse?: { id: string; use: ReuseUse }; startMedia?: string } {
  const id = search.get('reuse');
  const use = search.get('use') === 'settings' ? 'settings' : 'prompt';
  const startMedia = search.get('startMedia') ?? undefined;
  return { ...(id ? { reuse: { id, use } } : {}), ...(startMedia ? { startMedia } : {}) };
}

/**
 * A result's options as a generator's form state: only the options this model takes, and of a choice only a value it
 * still offers (the registry may have changed since), so a reused setting is always one the form can show.
 */
export function reusedOptions(model: ModelDef, options: MediaItemView['options']): OptionState {
  const out: OptionState = {};
  for (const [id, def] of Object.entries(model.options)) {
    const v = options[id];
    if (v === undefined || typeof v === 'boolean') continue;
    if (def.kind === 'choice') {
      const value = def.values.find((x) => String(x) === String(v));
      if (value !== undefined) out[id] = value;
    } else out[id] = v;
  }
  return out;
}
