import { Messages } from '../../contract/errors';
import type { ListMediaQuery, ListMediaResponse } from '../../contract/schemas';
import { NotFound } from '../domain/errors';
import type { CollectionIndex } from '../ports/collections';
import type { MediaIndex } from '../ports/jobs';
import type { MediaStore } from '../ports/media-store';
import { searchWords } from '../domain/prompt-search';
import { mediaView } from './steps/media-view';

export interface ListMediaDeps {
  media: MediaIndex;
  collections: CollectionIndex;
  store: MediaStore;
  /** The app's public origin (share links). */
  appUrl: string;
}

/**
 * GET /api/media: the caller's images and videos, newest first, a page at a time, with presigned URLs; filtered by
 * kind, model, star, prompt words and collection (an unknown collection is 404, not an empty page).
 */
export async function listMedia(deps: ListMediaDeps, owner: string, q: ListMediaQuery): Promise<ListMediaResponse> {
  const words = searchWords(q.q);
  if (q.collection && !(await deps.collections.get(owner, q.collection))) throw new NotFound(Messages.collectionNotFound);
  const page = await deps.media.list(owner, q.limit, q.cursor, {
    type: q.type,
    model: q.model,
    favorite: q.favorite,
    ...(words.length ? { words } : {}),
    ...(q.collection ? { collection: q.collection } : {}),
  });
  const items = await Promise.all(page.items.map((i) => mediaView(deps.store, deps.appUrl, i)));
  return { items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}

