/**
 * A failed batch of the one generation pipeline (generations.test.ts), then the reconciler: one part failing refunds
 * the whole batch once and saves none of it, and the reconciler run after the deliveries changes nothing. A file of
 * its own because the reconciler settles every open job of the stack: jest.config.js runs it in the serial group.
 */
import { json, userItems } from '../support/generation';
import { settled } from '../support/jobs';
import { api, createUser, type TestUser } from '../support/users';

jest.setTimeout(120_000);

let user: TestUser;

beforeAll(async () => {
  user = await createUser();
  await api(user, '/api/me');
});

it('one of 4 failing delivers the other 3 and refunds the failed one exactly once, and ends the job', async () => {
  const before = Number((await userItems(user.sub, 'ACCOUNT'))[0]!.credits);
  const res = await api(user, '/api/generations', { method: 'POST', body: JSON.stringify({ model: 'sdxl', prompt: 'four kites [fail-seed-2302]', options: { count: 4, seed: 2300 } }) });
  const { predictionId } = await json<{ predictionId: string }>(res);
  expect(res.status).toBe(200);
  const job = await settled(predictionId, { timeoutMs: 90_000 });
  expect(job).toMatchObject({ status: 'succeeded', error: '1 of 4 images could not be made. 1 credit refunded.' });
  // Deliveries still on their way change nothing.
  await new Promise((r) => setTimeout(r, 2_000));
  await settled(predictionId, { reconcile: true });
  expect(Number((await userItems(user.sub, 'ACCOUNT'))[0]!.credits)).toBe(before - 3);
  const account = (await userItems(user.sub, 'ACCOUNT'))[0]!;
  expect(account.activeJobs ?? 0).toBe(0);
});
