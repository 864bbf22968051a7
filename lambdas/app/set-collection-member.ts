import { Messages } from '../../contract/errors';
import type { CollectionItemResponse } from '../../contract/schemas';
import { NotFound } from '../domain/errors';
import type { CollectionIndex } from '../ports/collections';

export interface SetCollectionMemberDeps {
  collections: CollectionIndex;
}

/**
 * PUT / DELETE /api/collections/{id}/items/{mediaId}: puts one of the caller's results in one of their collections or
 * takes it out; an unknown (or another user's) collection or item is 404. Doing it twice is no change.
 */
export async function setCollectionMember(
  deps: SetCollectionMemberDeps,
  owner: string,
  collectionId: string,
  mediaId: string,
  member: boolean,
): Promise<CollectionItemResponse> {
  const result = await deps.collections.setMember(owner, collectionId, mediaId, member);
  if (result === 'no-collection') throw new NotFound(Messages.collectionNotFound);
  if (result === 'no-media') throw new NotFound(Messages.mediaNotFound);
  return { collectionId, mediaId, member };
}
