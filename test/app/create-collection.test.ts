/** Creating and listing named collections: the caller's own, oldest first, at most MAX_COLLECTIONS. */
import { Messages } from '../../contract/errors';
import { MAX_COLLECTIONS } from '../../contract/media-links';
import { createCollection } from '../../lambdas/app/create-collection';
import { listCollections } from '../../lambdas/app/list-collections';
import { Conflict } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { MemoryCollections } from '../support/fakes/collections';
import { MemoryMedia } from '../support/fakes/jobs';

function deps() {
  let ms = Date.parse('2026-01-01T00:00:00.000Z');
  return { collections: new MemoryCollections(new MemoryMedia()), now: () => new Date((ms += 1000)) };
}

describe('createCollection and listCollections', () => {
  it("creates the caller's collections and lists them oldest first, without anyone else's", async () => {
    const d = deps();
    const trips = await createCollection(d, 'u1', 'Trips');
    const cats = await createCollection(d, 'u1', 'Cats');
    await createCollection(d, 'u2', 'Not mine');
    expect(trips).toEqual({ id: expect.stringMatching(/^\d+-[0-9a-f]+$/), name: 'Trips', createdAt: '2026-01-01T00:00:01.000Z' });
    expect(await listCollections(d, 'u1')).toEqual({ items: [trips, cats] });
  });

  it(`refuses a collection past the ${MAX_COLLECTIONS}th with a 409 and stores nothing`, async () => {
    const d = deps();
    for (let i = 0; i < MAX_COLLECTIONS; i++) await createCollection(d, 'u1', `c${i}`);
    const err = await caught(createCollection(d, 'u1', 'one too many'));
    expect([err.constructor, err.message]).toEqual([Conflict, Messages.tooManyCollections(MAX_COLLECTIONS)]);
    expect((await listCollections(d, 'u1')).items).toHaveLength(MAX_COLLECTIONS);
    // Another user's cap is their own.
    await expect(createCollection(d, 'u2', 'fine')).resolves.toMatchObject({ name: 'fine' });
  });
});
