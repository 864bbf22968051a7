/**
 * Named collections through the embedded stack: create and list, add and remove results, the gallery filtered by a
 * collection, renaming and deleting one (its results stay), the 4xx of bad input (names, the cap, unknown ids) and a
 * deleted result leaving its collections.
 */
import { GetCommand, PutCommand } from '@aws-sdk/lib-dynamodb';
import { Messages } from '../../contract/errors';
import { MAX_COLLECTIONS, MAX_COLLECTION_NAME } from '../../contract/media-links';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { mediaRecord } from '../../lambdas/adapters/dynamodb-jobs';
import { createdAtOf, newId } from '../../lambdas/domain/ids';
import { keys } from '../../lambdas/domain/keys';
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
const rename = (user: TestUser, c: string, name: unknown) => api(user, `/api/collections/${c}`, { method: 'PUT', body: JSON.stringify({ name }) });
const remove = (user: TestUser, c: string) => api(user, `/api/collections/${c}`, { method: 'DELETE' });
/** The collection ids stored on a media item (DynamoDB keeps no empty set: none is an empty list). */
async function membershipsOf(user: TestUser, mediaId: string): Promise<string[]> {
  const Key = { pk: keys.user(user.sub), sk: keys.media(createdAtOf(mediaId)!, mediaId) };
  const res = await dynamo().send(new GetCommand({ TableName: stackEnv().TABLE_NAME, Key }));
  return [...((res.Item?.collections as Set<string> | undefined) ?? [])];
}
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

  it('renames a collection, and refuses a bad name (400) or an unknown or other user\'s collection (404)', async () => {
    const c = (await (await create(user, 'Drafts')).json()) as Collection;
    const res = await rename(user, c.id, '  Finals ');
    expect([res.status, await res.json()]).toEqual([200, { ...c, name: 'Finals' }]);
    expect((await json<{ items: Collection[] }>(api(user, '/api/collections'))).items).toContainEqual({ ...c, name: 'Finals' });
    for (const name of ['', ' ', 'x'.repeat(MAX_COLLECTION_NAME + 1), 7]) {
      const bad = await rename(user, c.id, name);
      expect([bad.status, await errorOf(bad)]).toEqual([400, Messages.invalidCollectionName(MAX_COLLECTION_NAME)]);
    }
    const theirs = (await (await create(other, 'Theirs')).json()) as Collection;
    for (const id of [newId(), theirs.id]) {
      const missing = await rename(user, id, 'Taken');
      expect([missing.status, await errorOf(missing)]).toEqual([404, Messages.collectionNotFound]);
    }
    expect((await json<{ items: Collection[] }>(api(other, '/api/collections'))).items).toEqual([theirs]);
  });

  it('deletes a collection: its results stay in the gallery and their other collections, and lose only its id', async () => {
    const gone = (await (await create(user, 'Gone')).json()) as Collection;
    const kept = (await (await create(user, 'Kept')).json()) as Collection;
    for (const p of ['harbour', 'lighthouse']) expect((await member(user, gone.id, ids[p]!, 'PUT')).status).toBe(200);
    expect((await member(user, kept.id, ids.harbour!, 'PUT')).status).toBe(200);
    const before = (await json<{ items: unknown[] }>(api(user, '/api/media'))).items.length;

    const res = await remove(user, gone.id);
    expect(res.status).toBe(204);

    const names = (await json<{ items: Collection[] }>(api(user, '/api/collections'))).items.map((c) => c.id);
    expect(names).toContain(kept.id);
    expect(names).not.toContain(gone.id);
    expect((await json<{ items: unknown[] }>(api(user, '/api/media'))).items).toHaveLength(before);
    expect(await prompts(user, kept.id)).toEqual(['harbour']);
    expect(await membershipsOf(user, ids.harbour!)).not.toContain(gone.id);
    expect(await membershipsOf(user, ids.lighthouse!)).not.toContain(gone.id);
    const filtered = await api(user, `/api/media?collection=${gone.id}`);
    expect([filtered.status, await errorOf(filtered)]).toEqual([404, Messages.collectionNotFound]);

    const theirs = (await (await create(other, 'Not yours')).json()) as Collection;
    for (const id of [gone.id, theirs.id, newId()]) {
      const again = await remove(user, id);
      expect([again.status, await errorOf(again)]).toEqual([404, Messages.collectionNotFound]);
    }
    expect((await json<{ items: Collection[] }>(api(other, '/api/collections'))).items).toContainEqual(theirs);
    expect((await remove(user, 'not an id')).status).toBe(400);
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
    const full = (await json<{ items: Collection[] }>(api(fresh, '/api/collections'))).items;
    expect(full).toHaveLength(MAX_COLLECTIONS);
    // Deleting one frees its place.
    expect((await remove(fresh, full[0]!.id)).status).toBe(204);
    expect((await create(fresh, 'in its place')).status).toBe(201);
    expect((await create(fresh, 'and no more')).status).toBe(409);
  });
});
