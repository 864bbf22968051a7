import type { ListMediaResponse, MediaItemView } from '../../../../contract/schemas';
import { api, ApiError } from '../../lib/api-client';

export type MediaType = MediaItemView['type'];
export type { MediaItemView };

/** One page of the user's results, newest first (GET /api/media). */
export function listMedia(params: { type?: MediaType; cursor?: string; limit?: number }, signal?: AbortSignal): Promise<ListMediaResponse> {
  return api.listMedia({ query: { limit: params.limit ?? 24, type: params.type, cursor: params.cursor }, signal });
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
