/**
 * Putting results in a collection and taking them out: the gallery filtered by the collection shows its members,
 * unknown or other users' collections and items are 404, and a deleted item leaves its collections.
 */
import { Messages } from '../../contract/errors';
import { createCollection } from '../../lambdas/app/create-collection';
import { deleteMedia } from '../../lambdas/app/delete-media';
import { listMedia } from '../../lambdas/app/list-media';
import { setCollectionMember } from '../../lambdas/app/set-collection-member';
import { NotFound } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { MemoryCollections } from '../support/fakes/collections';
import { MemoryMedia } from '../support/fakes/jobs';
import { mediaItem } from '../support/fakes/media';
import { MemoryMediaStore } from '../support/fakes/media-store';

function deps() {
  const media = new MemoryMedia();
  media.add(mediaItem('u1', 'a', { createdAt: '2026-01-01T00:00:00.000Z' }));
  media.add(mediaItem('u1', 'b', { createdAt: '2026-01-02T00:00:00.000Z' }));
  media.add(mediaItem('u2', 'c'));
  const collections = new MemoryCollections(media);
  return { media, collections, store: new MemoryMediaStore(), appUrl: 'https://app.test', now: () => new Date() };
}

const inCollection = async (d: ReturnType<typeof deps>, id: string) =>
  (await listMedia(d, 'u1', { limit: 24, collection: id })).items.map((i) => i.id);

describe('setCollectionMember', () => {
  it('adds and removes items; the filtered gallery follows, and doing it twice changes nothing', async () => {
    const d = deps();
    const trips = await createCollection(d, 'u1', 'Trips');
    const other = await createCollection(d, 'u1', 'Other');
    expect(await setCollectionMember(d, 'u1', trips.id, 'a', true)).toEqual({ collectionId: trips.id, mediaId: 'a', member: true });
    await setCollectionMember(d, 'u1', trips.id, 'a', true);
    await setCollectionMember(d, 'u1', trips.id, 'b', true);
    await setCollectionMember(d, 'u1', other.id, 'b', true);
    expect(await inCollection(d, trips.id)).toEqual(['b', 'a']);
    expect(await setCollectionMember(d, 'u1', trips.id, 'b', false)).toEqual({ collectionId: trips.id, mediaId: 'b', member: false });
    await setCollectionMember(d, 'u1', trips.id, 'b', false);
    expect(await inCollection(d, trips.id)).toEqual(['a']);
    expect(await inCollection(d, other.id)).toEqual(['b']);
  });

  it("answers 404 for an unknown or another user's collection or item, changing nothing", async () => {
    const d = deps();
    const mine = await createCollection(d, 'u1', 'Mine');
    const theirs = await createCollection(d, 'u2', 'Theirs');
    for (const [collection, media, message] of [
      ['nope', 'a', Messages.collectionNotFound],
      [theirs.id, 'a', Messages.collectionNotFound],
      [mine.id, 'zzz', Messages.mediaNotFound],
      [mine.id, 'c', Messages.mediaNotFound],
    ] as const) {
      const err = await caught(setCollectionMember(d, 'u1', collection, media, true));
      expect([err.constructor, err.message]).toEqual([NotFound, message]);
    }
    expect(await inCollection(d, mine.id)).toEqual([]);
    const err = await caught(listMedia(d, 'u1', { limit: 24, collection: theirs.id }));
    expect([err.constructor, err.message]).toEqual([NotFound, Messages.collectionNotFound]);
  });

  it('a deleted item leaves its collections', async () => {
    const d = deps();
    const trips = await createCollection(d, 'u1', 'Trips');
    await setCollectionMember(d, 'u1', trips.id, 'a', true);
    await deleteMedia(d, 'u1', 'a');
    expect(await inCollection(d, trips.id)).toEqual([]);
  });
});
