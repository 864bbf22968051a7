/**
 * The small persisted store of the jobs this browser follows (active-jobs.ts `createFollowedJobs`): localStorage
 * 'activeJobs' is its persistence, shared by the tabs, and it keeps no status of any job.
 */
import { IMAGE_MODEL } from '../../contract/catalog';
import { ACTIVE_JOBS_KEY, createFollowedJobs, FOREIGN_JOB_TTL_MS, parseJobs, type ActiveJob } from '../../web/src/features/generation/active-jobs';
import { MemoryStorage } from './helpers/memory-storage';

const NOW = 1_800_000_000_000;
const job = (id: string, extra: Partial<ActiveJob> = {}): ActiveJob => ({ predictionId: id, prompt: 'a lighthouse', createdAt: NOW, kind: 'image', model: IMAGE_MODEL.id, owner: 'u1', ...extra });
const stored = (storage: Storage) => parseJobs(storage.getItem(ACTIVE_JOBS_KEY)).map((j) => j.predictionId);

describe('the followed jobs store', () => {
  it('two tabs adding jobs keep each other’s, and the stored list is emptied when the last one ends', () => {
    const storage = new MemoryStorage();
    const tabA = createFollowedJobs(storage);
    const tabB = createFollowedJobs(storage);
    tabA.change((jobs) => [...jobs, job('p1')]);
    tabB.change((jobs) => [...jobs, job('p2')]);
    expect(stored(storage)).toEqual(['p1', 'p2']);
    tabA.reload();
    expect(tabA.store.getState().jobs.map((j) => j.predictionId)).toEqual(['p1', 'p2']);
    tabA.change((jobs) => jobs.filter((j) => j.predictionId !== 'p1'));
    tabB.change((jobs) => jobs.filter((j) => j.predictionId !== 'p2'));
    expect(storage.getItem(ACTIVE_JOBS_KEY)).toBeNull();
  });

  it('a user signing in adopts bare jobs and drops other users’ jobs older than a day; their own stay', () => {
    const storage = new MemoryStorage();
    storage.setItem(
      ACTIVE_JOBS_KEY,
      JSON.stringify([
        { predictionId: 'bare', prompt: 'p', createdAt: NOW },
        job('old-foreign', { owner: 'u2', createdAt: NOW - FOREIGN_JOB_TTL_MS - 1 }),
        job('new-foreign', { owner: 'u2' }),
        job('mine', { createdAt: NOW - FOREIGN_JOB_TTL_MS - 1 }),
      ]),
    );
    const list = createFollowedJobs(storage);
    list.setOwner('u1', NOW);
    expect(parseJobs(storage.getItem(ACTIVE_JOBS_KEY)).map((j) => [j.predictionId, j.owner])).toEqual([
      ['bare', 'u1'],
      ['new-foreign', 'u2'],
      ['mine', 'u1'],
    ]);
  });

  it('outcomes wait for the page of their kind, and keep no status of a running job', () => {
    const list = createFollowedJobs(new MemoryStorage());
    list.report({ job: job('p1'), status: 'succeeded', url: 'https://media.example/p1.png' });
    list.report({ job: job('p2', { kind: 'video' }), status: 'canceled', error: 'Canceled.' });
    expect(list.take((j) => j.kind === 'video').map((o) => o.job.predictionId)).toEqual(['p2']);
    expect(list.take((j) => j.kind === 'video')).toEqual([]);
    expect(Object.keys(list.store.getState()).sort()).toEqual(['jobs', 'outcomes', 'owner']);
    expect(list.store.getState().outcomes.map((o) => o.job.predictionId)).toEqual(['p1']);
  });
});
