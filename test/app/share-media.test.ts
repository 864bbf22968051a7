/**
 * Sharing a result: a public link with an unguessable token, the prompt shown only when chosen; sharing again keeps
 * the link and changes only that choice; unsharing makes the link unknown. Anyone else's item is 404.
 */
import { Messages } from '../../contract/errors';
import { shareMedia, unshareMedia } from '../../lambdas/app/share-media';
import { NotFound } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { testClock } from '../support/fakes/clock';
import { MemoryMedia } from '../support/fakes/jobs';
import { mediaItem } from '../support/fakes/media';

function setup() {
  const media = new MemoryMedia();
  media.add(mediaItem('u1', 'a'));
  return { media, deps: { media, appUrl: 'https://app.example.com/', now: testClock().now } };
}

describe('shareMedia', () => {
  it('makes a link with a 128-bit token, private prompt by default; sharing again keeps the link', async () => {
    const { media, deps } = setup();
    const first = await shareMedia(deps, 'u1', 'a', {});
    expect(first).toEqual({ url: expect.stringMatching(/^https:\/\/app\.example\.com\/s\/[A-Za-z0-9_-]{22}$/), showPrompt: false });
    const token = first.url.split('/s/')[1]!;
    expect(await media.shareOf(token)).toMatchObject({ owner: 'u1', mediaId: 'a', showPrompt: false });
    expect(await shareMedia(deps, 'u1', 'a', { showPrompt: true })).toEqual({ url: first.url, showPrompt: true });
    expect(await media.shareOf(token)).toMatchObject({ showPrompt: true });
    expect(media.shares.size).toBe(1);
  });

  it('gives two items two different links', async () => {
    const { media, deps } = setup();
    media.add(mediaItem('u1', 'b'));
    const [a, b] = [await shareMedia(deps, 'u1', 'a', {}), await shareMedia(deps, 'u1', 'b', {})];
    expect(a.url).not.toBe(b.url);
  });

  it("answers 404 for another user's item, making no link", async () => {
    const { media, deps } = setup();
    const err = await caught(shareMedia(deps, 'u2', 'a', { showPrompt: true }));
    expect([err.constructor, err.message]).toEqual([NotFound, Messages.mediaNotFound]);
    expect(media.shares.size).toBe(0);
  });
});

describe('unshareMedia', () => {
  it('makes the link unknown; a second unshare, or one of an item never shared, is 404', async () => {
    const { media, deps } = setup();
    const { url } = await shareMedia(deps, 'u1', 'a', {});
    await unshareMedia(deps, 'u1', 'a');
    expect(await media.shareOf(url.split('/s/')[1]!)).toBeUndefined();
    expect(await caught(unshareMedia(deps, 'u1', 'a'))).toBeInstanceOf(NotFound);
    expect(await caught(unshareMedia(deps, 'u2', 'a'))).toBeInstanceOf(NotFound);
  });
});
