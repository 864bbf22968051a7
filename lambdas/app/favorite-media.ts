import { Messages } from '../../contract/errors';
import type { FavoriteResponse } from '../../contract/schemas';
import { NotFound } from '../domain/errors';
import type { MediaIndex } from '../ports/jobs';

export interface FavoriteMediaDeps {
  media: MediaIndex;
}

/** PUT / DELETE /api/media/{id}/favorite: stars or unstars one of the caller's items (another user's id: 404). */
export async function favoriteMedia(deps: FavoriteMediaDeps, owner: string, id: string, favorite: boolean): Promise<FavoriteResponse> {
  if (!(await deps.media.setFavorite(owner, id, favorite))) throw new NotFound(Messages.mediaNotFound);
  return { id, favorite };
}
