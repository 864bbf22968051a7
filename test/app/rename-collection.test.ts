/** Renaming a collection: the list shows the new name; an unknown or another user's collection is 404 and keeps its name. */
import { Messages } from '../../contract/errors';
import { createCollection } from '../../lambdas/app/create-collection';
import { listCollections } from '../../lambdas/app/list-collections';
import { renameCollection } from '../../lambdas/app/rename-collection';
import { NotFound } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { MemoryCollections } from '../support/fakes/collections';
import { MemoryMedia } from '../support/fakes/jobs';

const deps = () => ({ collections: new MemoryCollections(new MemoryMedia()), now: () => new Date() });

describe('renameCollection', () => {
  it('gives the collection its new name and keeps its id and date', async () => {
    const d = deps();
    const trips = await createCollection(d, 'u1', 'Trips');
    expect(await renameCollection(d, 'u1', trips.id, 'Summer trips')).toEqual({ ...trips, name: 'Summer trips' });
    expect((await listCollections(d, 'u1')).items).toEqual([{ ...trips, name: 'Summer trips' }]);
  });

  it("answers 404 for an unknown or another user's collection, changing nothing", async () => {
    const d = deps();
    const theirs = await createCollection(d, 'u2', 'Theirs');
    for (const id of ['nope', theirs.id]) {
      const err = await caught(renameCollection(d, 'u1', id, 'Mine now'));
      expect([err.constructor, err.message]).toEqual([NotFound, Messages.collectionNotFound]);
    }
    expect((await listCollections(d, 'u2')).items).toEqual([theirs]);
  });
});
