import { NotFound } from '../domain/errors';
import type { MediaIndex } from '../ports/jobs';
import type { MediaStore } from '../ports/media-store';

export interface DeleteMediaDeps {
  media: MediaIndex;
  store: MediaStore;
}

/**
 * DELETE /api/media/{id}: removes the item, then its file: a failure in between leaves an unlisted file, never a
 * broken item. Another user's id is not found.
 */
export async function deleteMedia(deps: DeleteMediaDeps, owner: string, id: string): Promise<void> {
  const item = await deps.media.get(owner, id);
  if (!item) throw new NotFound('This item does not exist or was already deleted.');
  await deps.media.remove(owner, id);
  await deps.store.remove(item.key);
  if (item.posterKey) await deps.store.remove(item.posterKey);
}
