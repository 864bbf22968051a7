/**
 * Reuse and Animate on the server: GET /api/media/{id} (owner-only) and `startMediaId`, one of the caller's image
 * results as a video's start image with no re-upload (another user's id: 404; a video's: 400; nothing charged).
 */
import { WAN_I2V, WAN_T2V } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { grantCredits, json, providerIdOf, simPrediction, userItems } from '../support/generation';
import { settled } from '../support/jobs';
import { api, createUser, type TestUser } from '../support/users';

jest.setTimeout(120_000);

let owner: TestUser;
let other: TestUser;
let imageId: string;
let videoId: string;

async function result(user: TestUser, path: string, body: Record<string, unknown>): Promise<string> {
  const { predictionId } = await json<{ predictionId: string }>(api(user, path, { method: 'POST', body: JSON.stringify(body) }));
  const job = await settled(predictionId);
  expect(job.status).toBe('succeeded');
  return String(job.mediaId);
}

beforeAll(async () => {
  [owner, other] = await Promise.all([createUser(), createUser()]);
  await Promise.all([api(owner, '/api/me'), api(other, '/api/me')]);
  await grantCredits(owner, 30);
  [imageId, videoId] = await Promise.all([
    result(owner, '/api/generate-image', { prompt: 'a red lighthouse', aspectRatio: '16:9', seed: 42 }),
    result(owner, '/api/generate-video', { prompt: 'waves', model: WAN_T2V, duration: 5 }),
  ]);
});

const animate = (user: TestUser, startMediaId: string) =>
  api(user, '/api/generate-video', { method: 'POST', body: JSON.stringify({ prompt: 'the lighthouse blinks', model: WAN_I2V, duration: 5, startMediaId }) });
const credits = async (user: TestUser) => Number((await userItems(user.sub, 'ACCOUNT'))[0]!.credits);

describe('GET /api/media/{id}', () => {
  it('answers the owner with the item, its options and fresh URLs', async () => {
    const res = await api(owner, `/api/media/${imageId}`);
    expect(res.status).toBe(200);
    const item = await res.json();
    expect(item).toMatchObject({ id: imageId, type: 'image', prompt: 'a red lighthouse', options: { aspectRatio: '16:9', seed: 42 } });
    expect((await fetch(item.url)).status).toBe(200);
  });

  it('is 404 for another user\'s item and an unknown id, 400 for a malformed one', async () => {
    const res = await api(other, `/api/media/${imageId}`);
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe(Messages.mediaNotFound);
    expect((await api(owner, '/api/media/1-nothing')).status).toBe(404);
    expect((await api(owner, '/api/media/a.b')).status).toBe(400);
  });
});

describe('startMediaId: an image result as the start image', () => {
  it('another user\'s image is 404 and a video 400, with nothing charged', async () => {
    const before = [await credits(owner), await credits(other)];
    const stolen = await animate(other, imageId);
    expect(stolen.status).toBe(404);
    expect((await stolen.json()).error).toBe(Messages.mediaNotFound);
    const video = await animate(owner, videoId);
    expect(video.status).toBe(400);
    expect((await video.json()).error).toBe(Messages.startMediaNotImage);
    const both = await api(owner, '/api/generate-video', {
      method: 'POST',
      body: JSON.stringify({ prompt: 'x', model: WAN_I2V, duration: 5, startMediaId: imageId, image: `users/${owner.sub}/images/1.png` }),
    });
    expect(both.status).toBe(400);
    expect((await api(owner, '/api/generate-video', { method: 'POST', body: JSON.stringify({ prompt: 'x', model: WAN_T2V, duration: 5, startMediaId: imageId }) })).status).toBe(400);
    expect([await credits(owner), await credits(other)]).toEqual(before);
  });

  it('the caller\'s own image runs image-to-video from a short-lived URL of that very file', async () => {
    const res = await animate(owner, imageId);
    expect(res.status).toBe(200);
    const { predictionId } = await res.json();
    const prediction = await simPrediction(await providerIdOf(predictionId));
    const sent = await fetch(prediction.input.image);
    expect(sent.status).toBe(200);
    const original = await fetch((await json<{ url: string }>(api(owner, `/api/media/${imageId}`))).url);
    expect(Buffer.from(await sent.arrayBuffer()).equals(Buffer.from(await original.arrayBuffer()))).toBe(true);
    expect(prediction.input.max_area).toBe('832x480');
    const job = await settled(predictionId);
    expect(job).toMatchObject({ status: 'succeeded', options: expect.objectContaining({ startImage: true, startMediaId: imageId }) });
  });
});
