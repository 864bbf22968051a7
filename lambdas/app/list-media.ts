import type { ListMediaQuery, ListMediaResponse, MediaItemView } from '../../contract/schemas';
import type { MediaIndex, MediaItem } from '../ports/jobs';
import type { MediaStore } from '../ports/media-store';
import { mediaUrls } from './steps/media-urls';

export interface ListMediaDeps {
  media: MediaIndex;
  store: MediaStore;
}

/** GET /api/media: the caller's images and videos, newest first, a page at a time, with presigned URLs. */
export async function listMedia(deps: ListMediaDeps, owner: string, q: ListMediaQuery): Promise<ListMediaResponse> {
  const page = await deps.media.list(owner, q.limit, q.cursor, q.type);
  const items = await Promise.all(page.items.map((i) => mediaView(deps.store, i)));
  return { items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

/** A media item as the API shows it, with presigned URLs. */
export async function mediaView(store: MediaStore, i: MediaItem): Promise<MediaItemView> {
  return { id: i.id, type: i.type, prompt: i.prompt, model: i.model, options: i.options, createdAt: i.createdAt, ...(await mediaUrls(store, i)) };
}
