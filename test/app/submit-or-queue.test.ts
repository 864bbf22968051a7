/**
 * Draining our own queue of starts the provider could not take: fair across users, in order within each, stopping
 * at the first busy answer, and refunding what waited past the maximum wait. In-memory ports.
 */
import { drainQueue, fairOrder } from '../../lambdas/app/steps/submit-or-queue';
import type { Job, JobStore } from '../../lambdas/ports/jobs';
import { cancelAfterSeconds, jobDeadline } from '../../lambdas/app/steps/job-deadline';
import { ProviderBusy, type CreatePrediction, type ModelProvider } from '../../lambdas/ports/model-provider';

const NOW = Date.parse('2026-11-26T12:00:00Z');

function job(owner: string, n: number, queuedAgoMs = 1_000): Job {
  const createdAt = new Date(NOW - 60_000 + n * 1_000).toISOString();
  return { id: `${owner}-${n}`, owner, kind: 'image', model: 'm/m', prompt: 'p', options: {}, cost: 1, status: 'pending', createdAt, queued: { model: 'm/m', input: { n } }, queuedAt: NOW - queuedAgoMs };
}

function fakes(acceptCreates: number) {
  const created: string[] = [];
  const requests: CreatePrediction[] = [];
  const refunded: string[] = [];
  const provider = {
    async create(req: CreatePrediction) {
      if (created.length >= acceptCreates) throw new ProviderBusy('busy');
      const id = new URL(req.webhookUrl).searchParams.get('job')!;
      created.push(id);
      requests.push(req);
      return { id: `p-${id}`, status: 'starting' as const, output: [] };
    },
  } as unknown as ModelProvider;
  const jobs = {
    markStarted: async () => true,
    failAndRefund: async (j: Job) => (refunded.push(j.id), true),
  } as unknown as JobStore;
  const deps = { jobs, provider: async () => provider, webhookUrl: 'https://app/api/webhooks/replicate', now: () => new Date(NOW) };
  return { deps, created, refunded, requests };
}

test('fair order: each user’s oldest first, users in turn by their oldest job', () => {
  const jobs = [job('a', 1), job('a', 2), job('a', 3), job('b', 4), job('c', 5), job('b', 6)];
  expect(fairOrder(jobs).map((j) => j.id)).toEqual(['a-1', 'b-4', 'c-5', 'a-2', 'b-6', 'a-3']);
});

test('submits in fair order until the provider is busy again; the rest wait', async () => {
  const { deps, created } = fakes(3);
  const result = await drainQueue(deps, [job('a', 1), job('a', 2), job('a', 3), job('b', 4), job('c', 5)], 600_000);
  expect(created).toEqual(['a-1', 'b-4', 'c-5']);
  expect(result).toEqual({ submitted: 3, waiting: 2, refunded: 0 });
});

test('a job queued past the maximum wait is refunded, not submitted', async () => {
  const { deps, created, refunded } = fakes(10);
  const result = await drainQueue(deps, [job('a', 1, 700_000), job('b', 2)], 600_000);
  expect(refunded).toEqual(['a-1']);
  expect(created).toEqual(['b-2']);
  expect(result).toEqual({ submitted: 1, waiting: 0, refunded: 1 });
});

test("every create asks the provider to stop by our own deadline for the job's run: Cancel-After is the time left until it", async () => {
  const { deps, requests } = fakes(10);
  const waited = job('a', 1);
  await drainQueue(deps, [waited], 600_000);
  const left = Math.floor((jobDeadline(waited, 0) - NOW) / 1000);
  expect(requests[0]!.cancelAfterSeconds).toBe(left);
  expect(cancelAfterSeconds(waited, new Date(NOW))).toBe(left);
});

test('a job that waited in our queue past its run deadline is refunded, and nothing is asked of the provider', async () => {
  const { deps, created, refunded } = fakes(10);
  const fresh = job('a', 1);
  const runMs = jobDeadline(fresh, 0) - Date.parse(fresh.createdAt);
  // Charged a second more than its model's maximum run ago, queued all along (within the queue's maximum wait).
  const old = { ...fresh, createdAt: new Date(NOW - runMs - 1_000).toISOString() };
  expect(cancelAfterSeconds(old, new Date(NOW))).toBeUndefined();
  const result = await drainQueue(deps, [old], 600_000);
  expect(created).toEqual([]);
  expect(refunded).toEqual(['a-1']);
  expect(result).toEqual({ submitted: 0, waiting: 0, refunded: 1 });
});
