import type { ListMediaQuery, ListMediaResponse } from '../../contract/schemas';
import type { MediaIndex } from '../ports/jobs';
import type { MediaStore } from '../ports/media-store';
import { mediaUrls } from './steps/media-urls';

export interface ListMediaDeps {
  media: MediaIndex;
  store: MediaStore;
}

/** GET /api/media: the caller's images and videos, newest first, a page at a time, with presigned URLs. */
export async function listMedia(deps: ListMediaDeps, owner: string, q: ListMediaQuery): Promise<ListMediaResponse> {
  const page = await deps.media.list(owner, q.limit, q.cursor, q.type);
  const items = await Promise.all(
    page.items.map(async (i) => ({
      id: i.id,
      type: i.type,
      prompt: i.prompt,
      model: i.model,
      options: i.options,
      createdAt: i.createdAt,
      ...(i.width !== undefined && i.height !== undefined ? { width: i.width, height: i.height } : {}),
      ...(i.durationSeconds !== undefined ? { durationSeconds: i.durationSeconds } : {}),
      ...(await mediaUrls(deps.store, i)),
    })),
  );
  return { items, ...(page.nextCursor ? { nextCursor: page.nextCursor } : {}) };
}
