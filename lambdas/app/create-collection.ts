import { Messages } from '../../contract/errors';
import { MAX_COLLECTIONS } from '../../contract/media-links';
import type { CollectionView } from '../../contract/schemas';
import { Conflict } from '../domain/errors';
import { newId } from '../domain/ids';
import type { CollectionIndex } from '../ports/collections';

export interface CreateCollectionDeps {
  collections: CollectionIndex;
  now: () => Date;
}

/** POST /api/collections: a new named collection of the caller's, refused past MAX_COLLECTIONS (the name is checked by the route's schema). */
export async function createCollection(deps: CreateCollectionDeps, owner: string, name: string): Promise<CollectionView> {
  const now = deps.now();
  const collection = { id: newId(now), owner, name, createdAt: now.toISOString() };
  if (!(await deps.collections.create(collection, MAX_COLLECTIONS))) throw new Conflict(Messages.tooManyCollections(MAX_COLLECTIONS));
  return { id: collection.id, name, createdAt: collection.createdAt };
}
