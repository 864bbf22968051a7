/**
 * An Idempotency-Key belongs to one route: the same key from the same user on another route is a 422 with its own
 * message (it is a client's mistake: a key names one request), charging and starting nothing, where it used to answer
 * the first route's job. The first route still replays its answer under the key.
 */
import { IMAGE_MODEL, WAN_T2V } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { userItems } from '../support/generation';
import { settled } from '../support/jobs';
import { api, createUser } from '../support/users';

jest.setTimeout(120_000);

const post = (user: Awaited<ReturnType<typeof createUser>>, path: string, body: Record<string, unknown>, key: string) =>
  api(user, path, { method: 'POST', body: JSON.stringify(body), headers: { 'Idempotency-Key': key } });

describe('Idempotency-Key per route', () => {
  it('the same key on another route answers 422 and starts nothing; its own route replays its answer', async () => {
    const user = await createUser();
    await api(user, '/api/me');
    const key = `route-${Date.now()}`;
    const image = await post(user, '/api/generate-image', { prompt: 'a lighthouse at dusk' }, key);
    expect(image.status).toBe(200);
    const first = await image.json();

    const video = await post(user, '/api/generate-video', { model: WAN_T2V, prompt: 'a lighthouse at dusk', duration: 5 }, key);
    expect(video.status).toBe(422);
    expect(await video.json()).toEqual({ error: Messages.idempotencyKeyOtherRoute, code: 'IDEMPOTENCY_KEY_REUSED' });
    const generations = await post(user, '/api/generations', { model: IMAGE_MODEL.id, prompt: 'a lighthouse at dusk' }, key);
    expect(generations.status).toBe(422);
    expect((await generations.json()).error).toBe(Messages.idempotencyKeyOtherRoute);

    const again = await post(user, '/api/generate-image', { prompt: 'a lighthouse at dusk' }, key);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect((await again.json()).predictionId).toBe(first.predictionId);

    await settled(first.predictionId);
    const ledger = await userItems(user.sub, 'LEDGER#');
    expect(ledger.map((l) => l.reason).sort()).toEqual(['image', 'welcome']);
    expect(((await (await api(user, '/api/me')).json()) as { credits: number }).credits).toBe(9);
  });

  it('another user may use the same key on any route', async () => {
    const [a, b] = [await createUser(), await createUser()];
    await Promise.all([api(a, '/api/me'), api(b, '/api/me')]);
    const key = `shared-${Date.now()}`;
    const mine = await post(a, '/api/generate-image', { prompt: 'a quay' }, key);
    expect(mine.status).toBe(200);
    const theirs = await post(b, '/api/generate-video', { model: WAN_T2V, prompt: 'a quay', duration: 5 }, key);
    expect(theirs.status).toBe(200);
    await Promise.all([settled((await mine.json()).predictionId), settled((await theirs.json()).predictionId)]);
  });
});
