/**
 * A deleted account stays deleted, through the embedded stack: a token kept from before the deletion is still accepted
 * by the authorizer until it expires, so every signed-in route (and the push channel's handshake) answers it 401 from the account's tombstone, nothing of
 * the user is made again, and a first sign-in racing the deletion never leaves an account behind.
 */
import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { DELETED_ACCOUNT_TOMBSTONE_SECONDS } from '../../contract/auth';
import { Messages } from '../../contract/errors';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { waitForStatus } from '../support/generation';
import { openLive } from '../support/live';
import { api, createUser, stackEnv, type TestUser } from '../support/users';

const table = () => stackEnv().TABLE_NAME!;

/** Every table item that names the sub anywhere. */
async function itemsOf(sub: string): Promise<Array<Record<string, unknown>>> {
  const items: Array<Record<string, unknown>> = [];
  let start: Record<string, unknown> | undefined;
  do {
    const res = await dynamo().send(new ScanCommand({ TableName: table(), ConsistentRead: true, ExclusiveStartKey: start }));
    items.push(...(res.Items ?? []).filter((i) => JSON.stringify(i).includes(sub)));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

const del = (user: TestUser) => api(user, '/api/me', { method: 'DELETE' });

describe('a deleted account stays deleted', () => {
  it('answers a token kept from before the deletion 401 on every signed-in route, and keeps only the tombstone', async () => {
    const user = await createUser();
    expect((await api(user, '/api/me')).status).toBe(200);
    const job = (await (await api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt: 'before the deletion' }) })).json()) as { predictionId: string };
    await waitForStatus(user, job.predictionId, ['succeeded']);
    const before = Math.floor(Date.now() / 1000);
    expect((await del(user)).status).toBe(204);

    for (const [method, path, body] of [
      ['GET', '/api/me'],
      ['POST', '/api/generate-image', { prompt: 'after the deletion' }],
      ['POST', '/api/generate-video', { prompt: 'after the deletion', model: 'wavespeedai/wan-2.1-t2v-480p', duration: 5 }],
      ['GET', '/api/media'],
      ['POST', '/api/uploads', { contentType: 'image/png', size: 1000 }],
      ['GET', '/api/payments'],
    ] as const) {
      const res = await api(user, path, { method, ...(body ? { body: JSON.stringify(body) } : {}) });
      expect({ path, status: res.status }).toEqual({ path, status: 401 });
      expect((await res.json()).error).toBe(Messages.accountDeleted);
    }

    // Its jobs went with it: polling one finds nothing (check-status skips the tombstone read, it has nothing to make).
    expect((await api(user, `/api/check-status/${job.predictionId}`)).status).toBe(404);
    // Nor does the push channel take it (it would store a connection for the user).
    await expect(openLive(user)).rejects.toThrow('handshake 401');

    const left = await itemsOf(user.sub);
    expect(left).toEqual([{ pk: `DELETED#${user.sub}`, sk: 'DELETED', type: 'tombstone', ttl: expect.any(Number) }]);
    const ttl = left[0]!.ttl as number;
    expect(ttl).toBeGreaterThanOrEqual(before + DELETED_ACCOUNT_TOMBSTONE_SECONDS);
    expect(ttl).toBeLessThan(Math.floor(Date.now() / 1000) + DELETED_ACCOUNT_TOMBSTONE_SECONDS + 5);
    expect(JSON.stringify(left).toLowerCase()).not.toContain(user.email.toLowerCase());

    // Repeating the deletion (one that failed half way is finished so) changes nothing and makes nothing.
    expect((await del(user)).status).toBe(204);
    expect((await api(user, '/api/me')).status).toBe(401);
    expect(await itemsOf(user.sub)).toEqual(left.map((i) => ({ ...i, ttl: expect.any(Number) })));
  });

  it('a first GET /api/me racing the deletion never leaves an account after a completed deletion', async () => {
    const users = await Promise.all(Array.from({ length: 6 }, () => createUser()));
    const outcomes = await Promise.all(
      users.map(async (user, i) => {
        // Stagger the two calls differently per user, so the first sign-in lands before, inside and after the erasure.
        const me = new Promise<Response>((r) => setTimeout(() => r(api(user, '/api/me')), i * 15));
        const [deletion, first] = await Promise.all([del(user), me]);
        return { user, deletion: deletion.status, first: first.status };
      }),
    );
    for (const { user, deletion, first } of outcomes) {
      expect(deletion).toBe(204);
      expect([200, 401]).toContain(first);
      const left = await itemsOf(user.sub);
      expect(left.map((i) => i.pk)).toEqual([`DELETED#${user.sub}`]);
      const after = await api(user, '/api/me');
      expect(after.status).toBe(401);
      expect(await itemsOf(user.sub)).toHaveLength(1);
    }
  });
});
