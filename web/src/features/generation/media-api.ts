import type { CollectionView, ListMediaResponse, MediaItemView } from '../../../../contract/schemas';
import { api, ApiError } from '../../lib/api-client';

export type MediaType = MediaItemView['type'];
export type { CollectionView, MediaItemView };

/** Which results a list holds (GET /api/media's filters): a kind, a model family (registry slug), only starred ones. */
export interface MediaFilter {
  type?: MediaType;
  model?: string;
  favorite?: boolean;
  /** Words every prompt listed holds. */
  search?: string;
  /** Only the items in this collection (its id). */
  collection?: string;
}

/** One page of the user's results, newest first (GET /api/media). */
export function listMedia(params: MediaFilter & { cursor?: string; limit?: number }, signal?: AbortSignal): Promise<ListMediaResponse> {
  return api.listMedia({
    query: {
      limit: params.limit ?? 24,
      type: params.type,
      model: params.model,
      // Sent as `favorite=true`; left out, every item.
      favorite: params.favorite ? true : undefined,
      q: params.search?.trim() || undefined,
      collection: params.collection,
      cursor: params.cursor,
    },
    signal,
  });
}

/** Stars or unstars a result. */
export async function setFavorite(id: string, favorite: boolean): Promise<void> {
  await (favorite ? api.favoriteMedia({ params: { id } }) : api.unfavoriteMedia({ params: { id } }));
}

/** Makes (or keeps) the result's public link; the page shows the prompt only with showPrompt. */
export function shareMedia(id: string, showPrompt: boolean): Promise<{ url: string; showPrompt: boolean }> {
  return api.shareMedia({ params: { id }, body: { showPrompt } });
}

/** Revokes the result's public link. */
export async function unshareMedia(id: string): Promise<void> {
  await api.unshareMedia({ params: { id } });
}

/** Deletes an item and its file. One that is already gone counts as deleted. */
export async function deleteMedia(id: string): Promise<void> {
  try {
    await api.deleteMedia({ params: { id } });
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) return;
    throw err;
  }
}

/** One of the caller's results (404 once it was deleted). */
export function getMediaItem(id: string, signal?: AbortSignal): Promise<MediaItemView> {
  return api.getMedia({ params: { id }, signal });
}

/** The user's named collections, oldest first. */
export async function listCollections(signal?: AbortSignal): Promise<CollectionView[]> {
  return (await api.listCollections({ signal })).items;
}

/** Makes a named collection (the server trims the name and refuses past its cap, saying why). */
export function createCollection(name: string): Promise<CollectionView> {
  return api.createCollection({ body: { name } });
}

/** Gives a collection a new name (the server trims it and says why a name is refused). */
export function renameCollection(id: string, name: string): Promise<CollectionView> {
  return api.renameCollection({ params: { id }, body: { name } });
}

/** Deletes a collection; its results stay. */
export async function deleteCollection(id: string): Promise<void> {
  await api.deleteCollection({ params: { id } });
}

/** Takes a result out of a collection (not in it: no change). */
export async function removeFromCollection(collectionId: string, mediaId: string): Promise<void> {
  await api.removeFromCollection({ params: { id: collectionId, mediaId } });
}

/** Puts a result in a collection (already there: no change). */
export async function addToCollection(collectionId: string, mediaId: string): Promise<void> {
  await api.addToCollection({ params: { id: collectionId, mediaId } });
}
