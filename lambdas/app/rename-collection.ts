import { Messages } from '../../contract/errors';
import type { CollectionView } from '../../contract/schemas';
import { NotFound } from '../domain/errors';
import type { CollectionIndex } from '../ports/collections';

export interface RenameCollectionDeps {
  collections: CollectionIndex;
}

/** PUT /api/collections/{id}: a new name for one of the caller's collections (checked by the route's schema); unknown: 404. */
export async function renameCollection(deps: RenameCollectionDeps, owner: string, id: string, name: string): Promise<CollectionView> {
  const renamed = await deps.collections.rename(owner, id, name);
  if (!renamed) throw new NotFound(Messages.collectionNotFound);
  return { id: renamed.id, name: renamed.name, createdAt: renamed.createdAt };
}
