/** A start image's upload: a presigned POST for a key under the caller's own images, which S3 limits to PNG and 5 MB. */
import { MAX_START_IMAGE_BYTES, startImageLongSide } from '../../contract/catalog';
import { createUpload } from '../../lambdas/app/create-upload';
import { testClock } from '../support/fakes/clock';
import { MemoryMediaStore } from '../support/fakes/media-store';

describe('createUpload', () => {
  it("signs one key under the caller's images, PNG only, at most 5 MB, for ten minutes", async () => {
    const store = new MemoryMediaStore();
    const clock = testClock('2026-03-04T05:06:07.000Z');
    const answer = await createUpload({ store, now: clock.now }, 'user-7', { contentType: 'image/png', size: 1000 });
    const key = `users/user-7/images/${clock.now().getTime()}.png`;
    expect(answer).toEqual({ url: 'memory://bucket/', fields: { key, 'Content-Type': 'image/png' }, key, maxBytes: MAX_START_IMAGE_BYTES, maxLongSide: startImageLongSide('image') });
    expect(store.uploads).toEqual([{ key, maxBytes: MAX_START_IMAGE_BYTES, contentType: 'image/png', expiresSeconds: 600 }]);
  });

  it('signs image/png whatever type the browser named: the app converts every start image, and S3 refuses others', async () => {
    const store = new MemoryMediaStore();
    await createUpload({ store, now: testClock().now }, 'user-7', { contentType: 'image/svg+xml', size: 10 });
    expect(store.uploads[0]!.contentType).toBe('image/png');
  });

  it("answers the long side the chosen model's start image is brought to", async () => {
    const store = new MemoryMediaStore();
    for (const purpose of ['image', 'wan', 'pixverse'] as const) {
      const answer = await createUpload({ store, now: testClock().now }, 'user-7', { contentType: 'image/png', size: 10, purpose });
      expect(answer.maxLongSide).toBe(startImageLongSide(purpose));
    }
  });
});
