import type { ListMediaQuery, ListMediaResponse } from '../../contract/schemas';
import type { MediaIndex } from '../ports/jobs';
import type { MediaStore } from '../ports/media-store';
import { searchWords } from '../domain/prompt-search';
import { mediaView } from './steps/media-view';

export interface ListMediaDeps {
  media: MediaIndex;
  store: MediaStore;
  /** The app's public origin (share links). */
  appUrl: string;
}

/** GET /api/media: the caller's images and videos, newest first, a page at a time, with presigned URLs; filtered by kind, model, star and prompt words. */
export async function listMedia(deps: ListMediaDeps, owner: string, q: ListMediaQuery): Promise<ListMediaResponse> {
  const words = searchWords(q.q);
  const page = await deps.media.list(owner, q.limit, q.cursor, { type: q.type, model: q.model, favorite: q.favorite, ...(words.length ? { words } : {}) });
  const items = await Promise.all(page.items.map((i) => mediaView(deps.store, deps.appUrl, i)));
  return { items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

