/** Deleting a result: the item and its share link go first, then its file and poster; another user's id is 404. */
import { Messages } from '../../contract/errors';
import { deleteMedia } from '../../lambdas/app/delete-media';
import { NotFound } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { MemoryMedia } from '../support/fakes/jobs';
import { mediaItem } from '../support/fakes/media';
import { MemoryMediaStore } from '../support/fakes/media-store';

async function setup() {
  const media = new MemoryMedia();
  const store = new MemoryMediaStore();
  const video = mediaItem('u1', 'v1', { type: 'video', posterKey: 'users/u1/videos/v1-poster.jpg' });
  media.add(video);
  await store.put(video.key, Buffer.from('mp4'), 'video/mp4');
  await store.put(video.posterKey!, Buffer.from('jpg'), 'image/jpeg');
  await media.share('u1', 'v1', { token: 'tok', owner: 'u1', mediaId: 'v1', showPrompt: false, createdAt: video.createdAt });
  return { media, store, video };
}

describe('deleteMedia', () => {
  it('removes the item, its share link, its file and its poster', async () => {
    const { media, store } = await setup();
    await deleteMedia({ media, store }, 'u1', 'v1');
    expect(await media.get('u1', 'v1')).toBeUndefined();
    expect(await media.shareOf('tok')).toBeUndefined();
    expect(store.objects.size).toBe(0);
  });

  it("answers 404 for another user's item and for one already deleted, removing nothing", async () => {
    const { media, store } = await setup();
    const err = await caught(deleteMedia({ media, store }, 'u2', 'v1'));
    expect([err.constructor, err.message]).toEqual([NotFound, Messages.mediaNotFound]);
    expect(store.objects.size).toBe(2);
    await deleteMedia({ media, store }, 'u1', 'v1');
    expect(await caught(deleteMedia({ media, store }, 'u1', 'v1'))).toBeInstanceOf(NotFound);
  });

  it('leaves an unlisted file, never a listed item without its file, when the bucket fails', async () => {
    const { media, store } = await setup();
    jest.spyOn(store, 'remove').mockRejectedValueOnce(new Error('S3 503'));
    await expect(deleteMedia({ media, store }, 'u1', 'v1')).rejects.toThrow('S3 503');
    expect((await media.list('u1', 10)).items).toEqual([]);
  });
});
