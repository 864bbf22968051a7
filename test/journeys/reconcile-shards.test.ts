/**
 * The open-jobs index is sharded (`OPEN_JOB#<n>`, keys only) and the reconciler reads every shard, and still the
 * jobs written before it (gsi1's single OPEN_JOB partition): every job ends, exactly, and the invariants hold.
 */
import { QueryCommand, UpdateCommand } from '@aws-sdk/lib-dynamodb';
import { IMAGE_MODEL } from '../../contract/catalog';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { dynamoJobStore } from '../../lambdas/adapters/dynamodb-jobs';
import { newId } from '../../lambdas/domain/ids';
import { keys } from '../../lambdas/domain/keys';
import type { Job } from '../../lambdas/ports/jobs';
import { jobItem, userItems } from '../support/generation';
import { checkInvariants } from '../support/invariants';
import { backdateJob, expectExact, runReconciler } from '../support/jobs';
import { createAccount, stackEnv, type TestUser, WELCOME_CREDITS } from '../support/users';

jest.setTimeout(120_000);

const table = () => stackEnv().TABLE_NAME!;
const NOT_CONFIRMED = 'The generation service did not confirm the job. 1 credit refunded.';

/** A charged job as start-job stores it, as if its function died before asking the provider. */
async function chargedJob(user: TestUser, n: number): Promise<Job> {
  const now = new Date();
  const job: Job = { id: newId(now), owner: user.sub, kind: 'image', model: IMAGE_MODEL.id, prompt: `never asked ${n}`, options: {}, cost: 1, status: 'pending', createdAt: now.toISOString() };
  expect((await dynamoJobStore(dynamo(), table()).createCharged(job)).ok).toBe(true);
  return job;
}

afterEach(async () => {
  expect((await checkInvariants()).problems).toEqual([]);
});

it('new jobs spread over the shards, the index holds keys only, and the reconciler ends the jobs of every shard', async () => {
  const user = await createAccount();
  const jobs: Job[] = [];
  for (let n = 0; n < 8; n++) jobs.push(await chargedJob(user, n));
  const shards = new Set<string>();
  for (const job of jobs) {
    const item = (await jobItem(job.id))!;
    expect(item.openpk).toBe(keys.openJobShard(job.id));
    expect(item.gsi1pk).toBeUndefined();
    shards.add(String(item.openpk));
  }
  expect(shards.size).toBeGreaterThan(2);

  const shard = [...shards][0]!;
  const listed = await dynamo().send(new QueryCommand({ TableName: table(), IndexName: 'open-jobs', KeyConditionExpression: 'openpk = :s', ExpressionAttributeValues: { ':s': shard } }));
  for (const item of listed.Items ?? []) expect(Object.keys(item).sort()).toEqual(['openpk', 'opensk', 'pk', 'sk']);

  for (const job of jobs) await backdateJob(job.id, 5 * 60_000);
  await runReconciler();
  for (const job of jobs) {
    const ended = (await jobItem(job.id))!;
    expect({ id: job.id, status: ended.status, error: ended.error }).toEqual({ id: job.id, status: 'failed', error: NOT_CONFIRMED });
  }
  const account = (await userItems(user.sub, 'ACCOUNT'))[0]!;
  expect(account.credits).toBe(WELCOME_CREDITS);
});

it('a job written before the sharded index (gsi1, OPEN_JOB) is still reconciled, and its end leaves gsi1', async () => {
  const user = await createAccount();
  const job = await chargedJob(user, 0);
  const old = new Date(Date.now() - 5 * 60_000).toISOString();
  // Its index keys as they were written before: gsi1's single partition, nothing in the open-jobs index.
  await dynamo().send(
    new UpdateCommand({
      TableName: table(),
      Key: { pk: `JOB#${job.id}`, sk: 'JOB' },
      UpdateExpression: 'SET gsi1pk = :open, gsi1sk = :s, createdAt = :c REMOVE openpk, opensk',
      ExpressionAttributeValues: { ':open': 'OPEN_JOB', ':s': `${old}#${job.id}`, ':c': old },
    }),
  );
  await runReconciler();
  const ended = (await jobItem(job.id))!;
  expect(ended.error).toBe(NOT_CONFIRMED);
  await expectExact(user, job.id, { start: WELCOME_CREDITS, cost: 1, succeeded: false });
});
