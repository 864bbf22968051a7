/**
 * The job store's batch writes against DynamoDB Local: a part's prediction and output are recorded once each, only for
 * a part the job has and its own prediction, only while the job is open; the output write answers the job as it is
 * after (so the last part's recorder sees the batch complete); the job's outputs are then recorded once, in part order.
 */
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { dynamoJobStore } from '../../lambdas/adapters/dynamodb-jobs';
import { newId } from '../../lambdas/domain/ids';
import type { Job } from '../../lambdas/ports/jobs';
import { api, createUser, stackEnv, type TestUser } from '../support/users';

jest.setTimeout(60_000);

let user: TestUser;
const store = () => dynamoJobStore(dynamo(), stackEnv().TABLE_NAME!);

beforeAll(async () => {
  user = await createUser();
  await api(user, '/api/me');
});

async function chargedBatch(seeds: number[]): Promise<Job> {
  const now = new Date();
  const job: Job = {
    id: newId(now),
    owner: user.sub,
    kind: 'image',
    model: 'stability-ai/sdxl',
    prompt: 'boats',
    options: { seed: seeds[0]!, count: seeds.length },
    cost: seeds.length,
    status: 'pending',
    createdAt: now.toISOString(),
    batch: seeds.map((seed) => ({ seed })),
  };
  expect(await store().createCharged(job)).toMatchObject({ ok: true });
  return job;
}

describe('a batch job in DynamoDB', () => {
  it('records each part’s prediction once, and only for a part the job has', async () => {
    const job = await chargedBatch([5, 6]);
    expect(await store().markPartStarted(job.id, 1, 'p-1', 'starting')).toBe(true);
    expect(await store().markPartStarted(job.id, 1, 'p-other', 'processing')).toBe(false);
    expect(await store().markPartStarted(job.id, 2, 'p-2', 'starting')).toBe(false);
    expect((await store().get(job.id))!.batch).toEqual([{ seed: 5 }, { seed: 6, providerId: 'p-1' }]);
  });

  it('records each part’s output once, from its own prediction, answering the job after; then the job’s outputs once, in part order', async () => {
    const job = await chargedBatch([7, 8]);
    await store().markPartStarted(job.id, 0, 'p-0', 'starting');
    expect(await store().recordPartOutput(job.id, 0, 'p-stranger', 'https://x/stranger.png')).toBeUndefined();
    const first = await store().recordPartOutput(job.id, 1, 'p-1', 'https://x/1.png');
    expect(first?.batch).toEqual([{ seed: 7, providerId: 'p-0' }, { seed: 8, providerId: 'p-1', outputUrl: 'https://x/1.png' }]);
    expect(await store().recordPartOutput(job.id, 1, 'p-1', 'https://x/again.png')).toBeUndefined();
    const last = await store().recordPartOutput(job.id, 0, 'p-0', 'https://x/0.png');
    const urls = last!.batch!.map((b) => b.outputUrl!);
    expect(urls).toEqual(['https://x/0.png', 'https://x/1.png']);
    expect(await store().recordOutput(job.id, undefined, urls, Date.now())).toBe(true);
    expect(await store().recordOutput(job.id, undefined, urls, Date.now())).toBe(false);
    expect(await store().get(job.id)).toMatchObject({ status: 'processing', outputUrl: 'https://x/0.png', outputUrls: urls });
    expect((await store().get(job.id))!.providerId).toBeUndefined();
  });

  it('records nothing on a batch that has ended (refunded)', async () => {
    const job = await chargedBatch([9, 10]);
    expect(await store().failAndRefund(job, 'failed', 'Image generation failed. 2 credits refunded.')).toBe(true);
    expect(await store().markPartStarted(job.id, 0, 'p-0', 'starting')).toBe(false);
    expect(await store().recordPartOutput(job.id, 1, 'p-1', 'https://x/1.png')).toBeUndefined();
  });
});
