/**
 * The job store's one-job-per-request guard against DynamoDB Local: a second charge under the same request key is not
 * made and answers the first job with the balance as it is; another key charges again; the daily cap is still told
 * apart from the guard when both travel in the same transaction.
 */
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { dynamoJobStore } from '../../lambdas/adapters/dynamodb-jobs';
import { newId } from '../../lambdas/domain/ids';
import type { Job } from '../../lambdas/ports/jobs';
import { api, createUser, stackEnv, type TestUser } from '../support/users';

jest.setTimeout(60_000);

const store = () => dynamoJobStore(dynamo(), stackEnv().TABLE_NAME!);

async function signedUp(): Promise<TestUser> {
  const user = await createUser();
  await api(user, '/api/me');
  return user;
}

const balanceOf = async (user: TestUser) => ((await (await api(user, '/api/me')).json()) as { credits: number }).credits;

function jobOf(user: TestUser, requestKey?: string): Job {
  const now = new Date();
  return {
    id: newId(now),
    owner: user.sub,
    kind: 'image',
    model: 'stability-ai/sdxl',
    prompt: 'a quay',
    options: {},
    cost: 1,
    status: 'pending',
    createdAt: now.toISOString(),
    countsActive: true,
    ...(requestKey ? { requestKey } : {}),
  };
}

describe('one job per request key in DynamoDB', () => {
  it('answers a second charge under the same key with the first job, charging once', async () => {
    const user = await signedUp();
    const before = await balanceOf(user);
    const first = jobOf(user, 'click-1');
    expect(await store().createCharged(first, undefined, undefined, 4)).toEqual({ ok: true, balance: before - 1 });
    const again = jobOf(user, 'click-1');
    expect(await store().createCharged(again, undefined, undefined, 4)).toEqual({ ok: false, started: first.id, balance: before - 1 });
    expect(await store().get(again.id)).toBeUndefined();
    expect(await balanceOf(user)).toBe(before - 1);

    const other = jobOf(user, 'click-2');
    expect(await store().createCharged(other, undefined, undefined, 4)).toEqual({ ok: true, balance: before - 2 });
  });

  it('still tells the daily cap apart when a job carries a key', async () => {
    const user = await signedUp();
    expect(await store().createCharged(jobOf(user, 'day-1'), undefined, 1, 4)).toMatchObject({ ok: true });
    expect(await store().createCharged(jobOf(user, 'day-2'), undefined, 1, 4)).toEqual({ ok: false, dailyCapReached: true });
    expect(await store().createCharged(jobOf(user, 'day-1'), undefined, 1, 4)).toMatchObject({ ok: false, started: expect.any(String) });
  });
});
