import type { MediaItemView } from '../../contract/schemas';
import { Messages } from '../../contract/errors';
import { NotFound } from '../domain/errors';
import type { MediaIndex } from '../ports/jobs';
import type { MediaStore } from '../ports/media-store';
import { mediaView } from './steps/media-view';

export interface GetMediaDeps {
  media: MediaIndex;
  store: MediaStore;
  /** The site's address, for a shared item's link. */
  appUrl: string;
}

/** GET /api/media/{id}: one of the caller's results with fresh URLs (reuse its settings, restore a picked preview). */
export async function getMedia(deps: GetMediaDeps, owner: string, id: string): Promise<MediaItemView> {
  const item = await deps.media.get(owner, id);
  if (!item) throw new NotFound(Messages.mediaNotFound);
  return mediaView(deps.store, deps.appUrl, item);
}
