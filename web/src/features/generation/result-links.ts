/**
 * Where a result's Reuse and Animate actions lead: the generator pages read these URLs and fill themselves from the
 * named media item (GET /api/media/{id}), so nothing is uploaded again.
 * - images: /generator?reuse=<id>&use=prompt|settings
 * - videos: /video-generator/<family slug>?reuse=<id>&use=prompt|settings
 * - Animate: /video-generator/<first video model taking a start image>?startMedia=<id>
 */
import { modelOfReplicate, VIDEO_MODELS } from '../../../../contract/models';
import type { MediaItemView } from './media-api';

export type ReuseWhat = 'prompt' | 'settings';

export function reuseUrl(media: Pick<MediaItemView, 'id' | 'type' | 'model'>, use: ReuseWhat): string {
  const q = `reuse=${encodeURIComponent(media.id)}&use=${use}`;
  if (media.type === 'image') return `/generator?${q}`;
  const slug = modelOfReplicate(media.model)?.slug ?? VIDEO_MODELS[0]!.slug;
  return `/video-generator/${slug}?${q}`;
}

/** The video model an image is animated with: the registry's first available one that takes a start image. */
export const ANIMATE_MODEL = VIDEO_MODELS.find((m) => m.acceptsStartImage && !m.upcoming);

export function animateUrl(media: Pick<MediaItemView, 'id'>): string | undefined {
  return ANIMATE_MODEL ? `/video-generator/${ANIMATE_MODEL.slug}?startMedia=${encodeURIComponent(media.id)}` : undefined;
}

/** The model's name as the registry gives it ("SDXL", "Wan 2.1"), or its Replicate id. */
export function modelName(model: string): string {
  return modelOfReplicate(model)?.name ?? model;
}
