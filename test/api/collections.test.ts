/**
 * Named collections through the embedded stack: create and list, add and remove results, the gallery filtered by a
 * collection, the 4xx of bad input (names, the cap, unknown ids) and a deleted result leaving its collections.
 */
import { PutCommand } from '@aws-sdk/lib-dynamodb';
import { Messages } from '../../contract/errors';
import { MAX_COLLECTIONS, MAX_COLLECTION_NAME } from '../../contract/media-links';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { mediaRecord } from '../../lambdas/adapters/dynamodb-jobs';
import { newId } from '../../lambdas/domain/ids';
import { json } from '../support/generation';
import { api, createUser, stackEnv, type TestUser } from '../support/users';

interface Collection {
  id: string;
  name: string;
  createdAt: string;
}

/** Stores an image as a finished job does; returns its id. */
async function seedImage(user: TestUser, prompt: string, at: Date): Promise<string> {
  const id = newId(at);
  const item = mediaRecord({ id, owner: user.sub, type: 'image', key: `users/${user.sub}/images/${id}.png`, prompt, model: 'm', options: {}, createdAt: at.toISOString() });
  await dynamo().send(new PutCommand({ TableName: stackEnv().TABLE_NAME, Item: item }));
  return id;
}

const create = (user: TestUser, name: unknown) => api(user, '/api/collections', { method: 'POST', body: JSON.stringify({ name }) });
const member = (user: TestUser, c: string, m: string, method: 'PUT' | 'DELETE') => api(user, `/api/collections/${c}/items/${m}`, { method });
const errorOf = async (res: Response) => ((await res.json()) as { error: string }).error;
const prompts = async (user: TestUser, collection: string) =>
  (await json<{ items: Array<{ prompt: string }> }>(api(user, `/api/media?collection=${collection}`))).items.map((i) => i.prompt);

describe('collections', () => {
  let user: TestUser;
  let other: TestUser;
  const ids: Record<string, string> = {};
  beforeAll(async () => {
    [user, other] = await Promise.all([createUser(), createUser()]);
    const start = Date.now() - 10_000;
    for (const [i, p] of ['harbour', 'kite', 'lighthouse'].entries()) ids[p] = await seedImage(user, p, new Date(start + i * 1000));
  });

  it('creates and lists collections, puts results in one and filters the gallery by it', async () => {
    const res = await create(user, '  Trips  ');
    expect(res.status).toBe(201);
    const trips = (await res.json()) as Collection;
    expect(trips).toEqual({ id: expect.any(String), name: 'Trips', createdAt: expect.any(String) });
    expect(await json<{ items: Collection[] }>(api(user, '/api/collections'))).toEqual({ items: [trips] });
    expect(await json<{ items: Collection[] }>(api(other, '/api/collections'))).toEqual({ items: [] });

    for (const p of ['harbour', 'lighthouse']) {
      const put = await member(user, trips.id, ids[p]!, 'PUT');
      expect([put.status, await put.json()]).toEqual([200, { collectionId: trips.id, mediaId: ids[p], member: true }]);
    }
    expect((await member(user, trips.id, ids.harbour!, 'PUT')).status).toBe(200);
    expect(await prompts(user, trips.id)).toEqual(['lighthouse', 'harbour']);

    expect((await member(user, trips.id, ids.harbour!, 'DELETE')).status).toBe(200);
    expect(await prompts(user, trips.id)).toEqual(['lighthouse']);
    // The unfiltered gallery still has everything.
    expect((await json<{ items: unknown[] }>(api(user, '/api/media'))).items).toHaveLength(3);
  });

  it('a deleted result leaves its collections', async () => {
    const c = (await (await create(user, 'Soon empty')).json()) as Collection;
    expect((await member(user, c.id, ids.kite!, 'PUT')).status).toBe(200);
    expect((await api(user, `/api/media/${ids.kite}`, { method: 'DELETE' })).status).toBe(204);
    expect(await prompts(user, c.id)).toEqual([]);
  });

  it('refuses names that are empty, too long or not text with 400 and says why', async () => {
    for (const name of ['', '   ', 'x'.repeat(MAX_COLLECTION_NAME + 1), 42, undefined]) {
      const res = await create(user, name);
      expect([res.status, await errorOf(res)]).toEqual([400, Messages.invalidCollectionName(MAX_COLLECTION_NAME)]);
    }
    expect((await create(user, 'x'.repeat(MAX_COLLECTION_NAME))).status).toBe(201);
  });

  it("answers 404 for an unknown or another user's collection or result", async () => {
    const mine = (await (await create(user, 'Mine')).json()) as Collection;
    const theirs = (await (await create(other, 'Theirs')).json()) as Collection;
    const unknown = newId();
    for (const [c, m, message] of [
      [unknown, ids.harbour!, Messages.collectionNotFound],
      [theirs.id, ids.harbour!, Messages.collectionNotFound],
      [mine.id, unknown, Messages.mediaNotFound],
    ]) {
      for (const method of ['PUT', 'DELETE'] as const) {
        const res = await member(user, c!, m!, method);
        expect([res.status, await errorOf(res)]).toEqual([404, message]);
      }
    }
    const filtered = await api(user, `/api/media?collection=${theirs.id}`);
    expect([filtered.status, await errorOf(filtered)]).toEqual([404, Messages.collectionNotFound]);
    expect((await api(user, '/api/media?collection=not%2Fan%2Fid')).status).toBe(400);
  });

  it(`refuses a collection past the ${MAX_COLLECTIONS}th with 409, even when the last ones are asked for at once`, async () => {
    const fresh = await createUser();
    for (let i = 0; i < MAX_COLLECTIONS - 2; i++) expect((await create(fresh, `c${i}`)).status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 5 }, (_, i) => create(fresh, `last ${i}`)));
    expect(answers.map((r) => r.status).sort()).toEqual([201, 201, 409, 409, 409]);
    const refused = answers.find((r) => r.status === 409)!;
    expect(await errorOf(refused)).toBe(Messages.tooManyCollections(MAX_COLLECTIONS));
    expect((await json<{ items: Collection[] }>(api(fresh, '/api/collections'))).items).toHaveLength(MAX_COLLECTIONS);
  });
});
