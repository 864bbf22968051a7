import type { ListCollectionsResponse } from '../../contract/schemas';
import type { CollectionIndex } from '../ports/collections';

export interface ListCollectionsDeps {
  collections: CollectionIndex;
}

/** GET /api/collections: the caller's collections, oldest first (the gallery's filter and "Add to collection" list them). */
export async function listCollections(deps: ListCollectionsDeps, owner: string): Promise<ListCollectionsResponse> {
  const items = await deps.collections.list(owner);
  return { items: items.map(({ id, name, createdAt }) => ({ id, name, createdAt })) };
}
