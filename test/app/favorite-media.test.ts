/** Starring a result: the owner's item only (anyone else's id is 404), shown by the favourites filter. */
import { Messages } from '../../contract/errors';
import { favoriteMedia } from '../../lambdas/app/favorite-media';
import { NotFound } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { MemoryMedia } from '../support/fakes/jobs';
import { mediaItem } from '../support/fakes/media';

describe('favoriteMedia', () => {
  it('stars and unstars the owner’s item; the favourites list follows', async () => {
    const media = new MemoryMedia();
    media.add(mediaItem('u1', 'a'));
    media.add(mediaItem('u1', 'b'));
    expect(await favoriteMedia({ media }, 'u1', 'a', true)).toEqual({ id: 'a', favorite: true });
    expect((await media.list('u1', 10, undefined, { favorite: true })).items.map((m) => m.id)).toEqual(['a']);
    expect(await favoriteMedia({ media }, 'u1', 'a', false)).toEqual({ id: 'a', favorite: false });
    expect((await media.list('u1', 10, undefined, { favorite: true })).items).toEqual([]);
  });

  it("answers 404 for another user's item and an unknown id, changing nothing", async () => {
    const media = new MemoryMedia();
    media.add(mediaItem('u1', 'a'));
    for (const [owner, id] of [['u2', 'a'], ['u1', 'zzz']] as const) {
      const err = await caught(favoriteMedia({ media }, owner, id, true));
      expect([err.constructor, err.message]).toEqual([NotFound, Messages.mediaNotFound]);
    }
    expect((await media.get('u1', 'a'))!.favorite).toBeUndefined();
  });
});
