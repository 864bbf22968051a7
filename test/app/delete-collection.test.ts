/**
 * Deleting a collection: it leaves the list, its results stay in the gallery (and in the other collections they are
 * in), its place under the cap is free again; an unknown or another user's collection is 404 and stays.
 */
import { Messages } from '../../contract/errors';
import { MAX_COLLECTIONS } from '../../contract/media-links';
import { createCollection } from '../../lambdas/app/create-collection';
import { deleteCollection } from '../../lambdas/app/delete-collection';
import { listCollections } from '../../lambdas/app/list-collections';
import { listMedia } from '../../lambdas/app/list-media';
import { setCollectionMember } from '../../lambdas/app/set-collection-member';
import { Conflict, NotFound } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { MemoryCollections } from '../support/fakes/collections';
import { MemoryMedia } from '../support/fakes/jobs';
import { mediaItem } from '../support/fakes/media';
import { MemoryMediaStore } from '../support/fakes/media-store';

function deps() {
  const media = new MemoryMedia();
  media.add(mediaItem('u1', 'a', { createdAt: '2026-01-01T00:00:00.000Z' }));
  media.add(mediaItem('u1', 'b', { createdAt: '2026-01-02T00:00:00.000Z' }));
  return { media, collections: new MemoryCollections(media), store: new MemoryMediaStore(), appUrl: 'https://app.test', now: () => new Date() };
}

describe('deleteCollection', () => {
  it('removes the collection and keeps its results, in the gallery and in their other collections', async () => {
    const d = deps();
    const trips = await createCollection(d, 'u1', 'Trips');
    const best = await createCollection(d, 'u1', 'Best');
    for (const id of ['a', 'b']) await setCollectionMember(d, 'u1', trips.id, id, true);
    await setCollectionMember(d, 'u1', best.id, 'a', true);

    await deleteCollection(d, 'u1', trips.id);

    expect((await listCollections(d, 'u1')).items).toEqual([best]);
    expect((await listMedia(d, 'u1', { limit: 24 })).items.map((i) => i.id)).toEqual(['b', 'a']);
    expect((await listMedia(d, 'u1', { limit: 24, collection: best.id })).items.map((i) => i.id)).toEqual(['a']);
    expect([...d.media.memberships.values()].some((s) => s.has(trips.id))).toBe(false);
    const err = await caught(listMedia(d, 'u1', { limit: 24, collection: trips.id }));
    expect([err.constructor, err.message]).toEqual([NotFound, Messages.collectionNotFound]);
  });

  it('frees its place under the cap', async () => {
    const d = deps();
    const made = [];
    for (let i = 0; i < MAX_COLLECTIONS; i++) made.push(await createCollection(d, 'u1', `c${i}`));
    expect((await caught(createCollection(d, 'u1', 'one more'))).constructor).toBe(Conflict);
    await deleteCollection(d, 'u1', made[0]!.id);
    expect((await createCollection(d, 'u1', 'one more')).name).toBe('one more');
  });

  it("answers 404 for an unknown or another user's collection, which stays", async () => {
    const d = deps();
    const theirs = await createCollection(d, 'u2', 'Theirs');
    for (const id of ['nope', theirs.id]) {
      const err = await caught(deleteCollection(d, 'u1', id));
      expect([err.constructor, err.message]).toEqual([NotFound, Messages.collectionNotFound]);
    }
    expect((await listCollections(d, 'u2')).items).toEqual([theirs]);
  });
});
