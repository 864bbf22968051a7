import { Messages } from '../../contract/errors';
import { NotFound } from '../domain/errors';
import type { CollectionIndex } from '../ports/collections';

export interface DeleteCollectionDeps {
  collections: CollectionIndex;
}

/**
 * DELETE /api/collections/{id}: removes one of the caller's collections (unknown: 404) and frees its place under the
 * cap; the results in it stay in the gallery, only their membership goes.
 */
export async function deleteCollection(deps: DeleteCollectionDeps, owner: string, id: string): Promise<void> {
  if (!(await deps.collections.remove(owner, id))) throw new NotFound(Messages.collectionNotFound);
  await deps.collections.clearMembers(owner, id);
}
