/**
 * The queue: several jobs at once up to MAX_ACTIVE_JOBS (enforced in the charge transaction), and
 * POST /api/jobs/{id}/cancel: owner-only, a full refund while the provider has not begun, none once it runs
 * (after the caller agreed), once, even racing the provider's completion. Through the gateway, on the embedded stack.
 */
import { MAX_ACTIVE_JOBS } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { grantCredits, jobItem, providerIdOf, simPrediction, userItems, waitForSim } from '../support/generation';
import { drainStreams, settled } from '../support/jobs';
import { api, createUser, type TestUser } from '../support/users';

jest.setTimeout(120_000);

async function newUser(credits = 0): Promise<TestUser> {
  const user = await createUser();
  await api(user, '/api/me');
  if (credits) await grantCredits(user, credits);
  return user;
}

const startImage = (user: TestUser, prompt: string) => api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt }) });
async function started(user: TestUser, prompt: string): Promise<string> {
  const res = await startImage(user, prompt);
  const body = await res.json();
  if (res.status !== 200) throw new Error(`generate ${res.status}: ${JSON.stringify(body)}`);
  return body.predictionId as string;
}
const cancel = (user: TestUser, id: string, body: Record<string, unknown> = {}) =>
  api(user, `/api/jobs/${id}/cancel`, { method: 'POST', body: JSON.stringify(body) });

const account = async (user: TestUser) => (await userItems(user.sub, 'ACCOUNT'))[0]!;
const ledgerOf = async (user: TestUser, jobId: string) => (await userItems(user.sub, 'LEDGER#')).filter((l) => l.ref === jobId);

describe('POST /api/jobs/{id}/cancel', () => {
  it('is the owner\'s only: another user\'s job and an unknown id are 404, a bad id or body 400, nothing changes', async () => {
    const [owner, other] = await Promise.all([newUser(), newUser()]);
    const id = await started(owner, 'a lighthouse [slow]');
    const res = await cancel(other, id);
    expect(res.status).toBe(404);
    expect((await res.json()).error).toBe(Messages.jobNotFound);
    expect((await cancel(other, '1-unknown')).status).toBe(404);
    expect((await cancel(owner, 'a.b')).status).toBe(400);
    const bad = await cancel(owner, id, { acceptCharge: 'yes' });
    expect(bad.status).toBe(400);
    expect((await cancel(owner, id, { refund: true })).status).toBe(400);
    expect(['pending', 'starting', 'processing']).toContain((await jobItem(id))!.status);
    await cancel(owner, id, { acceptCharge: true });
  });

  it('while the provider has not begun: the job ends canceled, the credits come back once, the prediction is canceled', async () => {
    const user = await newUser();
    const id = await started(user, 'a harbour waiting for a machine [queued]');
    const res = await cancel(user, id);
    const body = await res.json();
    expect(res.status).toBe(200);
    expect(body).toEqual({ status: 'canceled', refunded: 1, credits: 10, error: 'The generation was canceled. 1 credit refunded.' });
    // A repeat changes nothing and answers the same.
    expect(await (await cancel(user, id)).json()).toEqual(body);
    await waitForSim(await providerIdOf(id), ['canceled']);
    await drainStreams();
    const job = (await jobItem(id))!;
    expect(job.status).toBe('canceled');
    expect(job.gsi1pk).toBeUndefined();
    expect((await ledgerOf(user, id)).map((l) => l.delta).sort()).toEqual([-1, 1]);
    expect(await account(user)).toMatchObject({ credits: 10, activeJobs: 0 });
    const status = await (await api(user, `/api/check-status/${id}`)).json();
    expect(status).toMatchObject({ status: 'canceled', error: 'The generation was canceled. 1 credit refunded.', value: 10 });
  });

  it('once the provider runs it: 409 with the confirmation first; agreed, canceled without a refund', async () => {
    const user = await newUser();
    const id = await started(user, 'a slow meadow [slow]');
    await waitForSim(await providerIdOf(id), ['processing']);
    const ask = await cancel(user, id);
    expect(ask.status).toBe(409);
    expect((await ask.json()).error).toBe(Messages.cancelSpendsCredits(1));
    expect((await jobItem(id))!.status).not.toBe('canceled');

    const res = await cancel(user, id, { acceptCharge: true });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'canceled', refunded: 0, credits: 9, error: Messages.canceledNoRefund(1) });
    expect((await simPrediction((await jobItem(id))!.providerId)).status).toBe('canceled');
    // The provider's canceled webhook comes after our write: it refunds nothing.
    await new Promise((r) => setTimeout(r, 500));
    await drainStreams();
    expect((await ledgerOf(user, id)).map((l) => l.delta)).toEqual([-1]);
    expect(await account(user)).toMatchObject({ credits: 9, activeJobs: 0 });
    expect(await userItems(user.sub, 'MEDIA#')).toHaveLength(0);
  });

  it('a job that already succeeded is not canceled (409)', async () => {
    const user = await newUser();
    const id = await started(user, 'a quick fox');
    await settled(id);
    const res = await cancel(user, id, { acceptCharge: true });
    expect(res.status).toBe(409);
    expect((await res.json()).error).toBe(Messages.jobAlreadyEnded);
    expect((await jobItem(id))!.status).toBe('succeeded');
  });

  it('racing the provider\'s completion, each job settles once: saved, or canceled, never both', async () => {
    const user = await newUser(20);
    const outcomes: Array<{ id: string; answer: number }> = [];
    // Two rounds of a full queue; the cancels are spread over the end of the run (about 3.6 s of processing) and past it.
    for (const round of [0, 1]) {
      const ids = await Promise.all(Array.from({ length: MAX_ACTIVE_JOBS }, (_, i) => started(user, `race ${round} ${i}`)));
      outcomes.push(
        ...(await Promise.all(
          ids.map(async (id, i) => {
            await waitForSim(await providerIdOf(id), ['processing', 'succeeded']);
            await new Promise((r) => setTimeout(r, 2_700 + i * 350 + round * 175));
            return { id, answer: (await cancel(user, id, { acceptCharge: true })).status };
          }),
        )),
      );
      await Promise.all(ids.map((id) => settled(id)));
    }
    const media = await userItems(user.sub, 'MEDIA#');
    for (const { id, answer } of outcomes) {
      const job = (await jobItem(id))!;
      const saved = media.filter((m) => m.jobId === id);
      expect((await ledgerOf(user, id)).map((l) => l.delta)).toEqual([-1]);
      if (answer === 200) {
        expect(job.status).toBe('canceled');
        expect(saved).toHaveLength(0);
      } else {
        expect(answer).toBe(409);
        expect(job.status).toBe('succeeded');
        expect(saved).toHaveLength(1);
      }
    }
    // Both outcomes happened (the race was real), and the counter came back to zero once per job.
    expect(new Set(outcomes.map((o) => o.answer))).toEqual(new Set([200, 409]));
    expect(await account(user)).toMatchObject({ credits: 30 - outcomes.length, activeJobs: 0 });
  });
});

describe('the queue limit', () => {
  it(`admits ${MAX_ACTIVE_JOBS} running jobs, refuses the next with 429 and no charge, and takes one again after a cancel`, async () => {
    const user = await newUser(10);
    const ids = await Promise.all(Array.from({ length: MAX_ACTIVE_JOBS }, (_, i) => started(user, `queued ${i} [slow]`)));
    const refused = await startImage(user, 'one too many [slow]');
    expect(refused.status).toBe(429);
    expect((await refused.json()).error).toBe(Messages.tooManyActiveJobs(MAX_ACTIVE_JOBS));
    expect((await account(user)).credits).toBe(20 - MAX_ACTIVE_JOBS);

    expect((await cancel(user, ids[0]!, { acceptCharge: true })).status).toBe(200);
    ids.push(await started(user, 'room again [slow]'));
    await Promise.all(ids.slice(1).map((id) => cancel(user, id, { acceptCharge: true })));
    expect((await account(user)).activeJobs).toBe(0);
  });

  it('racing starts with room for fewer admit exactly the room', async () => {
    const user = await newUser(10);
    await started(user, 'already running [slow]');
    const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => startImage(user, `rush ${i} [slow]`)));
    const statuses = answers.map((r) => r.status).sort();
    expect(statuses).toEqual([...Array(MAX_ACTIVE_JOBS - 1).fill(200), ...Array(8 - MAX_ACTIVE_JOBS + 1).fill(429)]);
    const acct = await account(user);
    expect(acct.activeJobs).toBe(MAX_ACTIVE_JOBS);
    expect(acct.credits).toBe(20 - MAX_ACTIVE_JOBS);
    expect((await userItems(user.sub, 'LEDGER#')).filter((l) => l.reason === 'image')).toHaveLength(MAX_ACTIVE_JOBS);
  });
});
