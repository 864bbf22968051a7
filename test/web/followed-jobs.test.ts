import { POLL_INTERVAL_MS } from '../../contract/catalog';
import type { CheckStatusResponse } from '../../contract/schemas';
import { ACTIVE_JOBS_KEY, parseJobs, type ActiveJob } from '../../web/src/features/generation/active-jobs';
import { createJobTracker, type JobTracker } from '../../web/src/features/generation/followed-jobs';
import { ApiError } from '../../web/src/lib/api-client';
import { MemoryStorage } from './helpers/memory-storage';

type Answer = CheckStatusResponse | Error;

/** A check-status stand-in: answers each job's checks from a script, repeating the last answer. */
function scriptedCheck(script: Record<string, Answer[]>) {
  const calls: string[] = [];
  const check = jest.fn(async (id: string): Promise<CheckStatusResponse> => {
    calls.push(id);
    const answers = script[id];
    if (!answers || answers.length === 0) throw new ApiError(404, 'NOT_FOUND', 'Job not found.');
    const answer = answers.length > 1 ? answers.shift()! : answers[0]!;
    if (answer instanceof Error) throw answer;
    return answer;
  });
  return { check, calls };
}

const running = (value = 9): CheckStatusResponse => ({ status: 'processing', value });

function stored(storage: Storage): ActiveJob[] {
  return parseJobs(storage.getItem(ACTIVE_JOBS_KEY));
}

function imageJob(id: string, prompt = 'a lighthouse'): Omit<ActiveJob, 'owner'> {
  return { predictionId: id, prompt, createdAt: Date.now(), kind: 'image', model: 'stability-ai/sdxl' };
}

function videoJob(id: string, prompt = 'a paper boat'): Omit<ActiveJob, 'owner'> {
  return { predictionId: id, prompt, createdAt: Date.now(), kind: 'video', model: 'wavespeedai/wan-2.1-t2v-480p', options: { duration: 5 } };
}

let trackers: JobTracker[] = [];
function tracker(storage: Storage | undefined, check: (id: string) => Promise<CheckStatusResponse>, onBalance = jest.fn()) {
  const t = createJobTracker({ storage, check, onBalance, intervalMs: POLL_INTERVAL_MS });
  trackers.push(t);
  return t;
}

beforeEach(() => {
  jest.useFakeTimers();
});

afterEach(() => {
  for (const t of trackers) t.reset();
  trackers = [];
  jest.useRealTimers();
});

describe('job tracker', () => {
  it("keeps a started job in localStorage 'activeJobs' with predictionId, prompt and createdAt, and polls every 5 s until it ends", async () => {
    const storage = new MemoryStorage();
    const { check, calls } = scriptedCheck({
      'job-1': [running(9), running(9), { status: 'succeeded', imageUrl: 'https://media.test/a.png', mediaId: 'm-1', value: 9 }],
    });
    const onBalance = jest.fn();
    const t = tracker(storage, check, onBalance);
    t.setOwner('user-a');

    t.add(imageJob('job-1'));
    const saved = JSON.parse(storage.getItem(ACTIVE_JOBS_KEY)!) as Array<Record<string, unknown>>;
    expect(saved).toEqual([expect.objectContaining({ predictionId: 'job-1', prompt: 'a lighthouse', createdAt: expect.any(Number), owner: 'user-a' })]);
    expect(t.statusOf('job-1')).toBe('starting');

    // Nothing is asked before one interval has passed.
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS - 1);
    expect(calls).toEqual([]);
    await jest.advanceTimersByTimeAsync(1);
    expect(calls).toEqual(['job-1']);
    expect(t.statusOf('job-1')).toBe('processing');

    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(calls).toHaveLength(2);
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(calls).toHaveLength(3);

    // Succeeded: out of storage, one outcome, the server's balance passed on, and no more polling.
    expect(stored(storage)).toEqual([]);
    expect(t.takeOutcomes(() => true)).toEqual([
      expect.objectContaining({ status: 'succeeded', url: 'https://media.test/a.png', mediaId: 'm-1', job: expect.objectContaining({ predictionId: 'job-1' }) }),
    ]);
    expect(onBalance).toHaveBeenLastCalledWith(9);
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    expect(calls).toHaveLength(3);
  });

  it('resumes every stored job after a reload, checking at once and then every 5 s', async () => {
    const storage = new MemoryStorage();
    const first = tracker(storage, scriptedCheck({}).check);
    first.setOwner('user-a');
    first.add(imageJob('job-1', 'first'));
    first.add(videoJob('job-2', 'second'));
    // The page goes away (reload): its timers die with it.
    first.reset();

    const { check, calls } = scriptedCheck({
      'job-1': [running(), { status: 'succeeded', imageUrl: 'https://media.test/1.png', value: 8 }],
      'job-2': [running(), running(), { status: 'failed', error: 'Prediction failed: simulated model error', value: 16 }],
    });
    const onBalance = jest.fn();
    const reloaded = tracker(storage, check, onBalance);
    expect(reloaded.store.getState().jobs.map((j) => j.prompt)).toEqual(['first', 'second']);
    reloaded.setOwner('user-a');
    await jest.advanceTimersByTimeAsync(0);
    expect(calls.sort()).toEqual(['job-1', 'job-2']);

    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(stored(storage).map((j) => j.predictionId)).toEqual(['job-2']);
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(stored(storage)).toEqual([]);

    const outcomes = reloaded.takeOutcomes(() => true);
    expect(outcomes).toEqual([
      expect.objectContaining({ status: 'succeeded', url: 'https://media.test/1.png' }),
      expect.objectContaining({ status: 'failed', error: 'Prediction failed: simulated model error' }),
    ]);
    // A refund shows up as the balance the server reports.
    expect(onBalance).toHaveBeenLastCalledWith(16);
  });

  it("adopts jobs stored in the spec's bare shape {predictionId, prompt, createdAt} as image jobs of whoever signs in", async () => {
    const storage = new MemoryStorage();
    storage.setItem(ACTIVE_JOBS_KEY, JSON.stringify([{ predictionId: 'old-1', prompt: 'legacy', createdAt: new Date().toISOString() }, { nonsense: true }, 'x']));
    const { check, calls } = scriptedCheck({ 'old-1': [{ status: 'succeeded', imageUrl: 'https://media.test/old.png', value: 3 }] });
    const t = tracker(storage, check);
    t.setOwner('user-a');
    await jest.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['old-1']);
    expect(t.takeOutcomes((j) => j.kind === 'image')).toEqual([expect.objectContaining({ status: 'succeeded', url: 'https://media.test/old.png' })]);
  });

  it("never polls another user's jobs and keeps them for when that user returns", async () => {
    const storage = new MemoryStorage();
    const a = tracker(storage, scriptedCheck({}).check);
    a.setOwner('user-a');
    a.add(imageJob('job-a'));
    a.reset();

    const { check, calls } = scriptedCheck({ 'job-a': [running()] });
    const b = tracker(storage, check);
    b.setOwner('user-b');
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 2);
    expect(calls).toEqual([]);
    expect(stored(storage).map((j) => j.owner)).toEqual(['user-a']);

    // Signing out stops everything; user A signing in again resumes the job.
    b.setOwner(undefined);
    b.setOwner('user-a');
    await jest.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['job-a']);
  });

  it('forgets other users\' jobs after a day', () => {
    const storage = new MemoryStorage();
    const dayAgo = Date.now() - 25 * 60 * 60 * 1000;
    storage.setItem(
      ACTIVE_JOBS_KEY,
      JSON.stringify([
        { predictionId: 'stale', prompt: 'x', createdAt: dayAgo, kind: 'image', model: 'stability-ai/sdxl', owner: 'user-b' },
        { predictionId: 'fresh', prompt: 'y', createdAt: Date.now(), kind: 'image', model: 'stability-ai/sdxl', owner: 'user-b' },
      ]),
    );
    const t = tracker(storage, scriptedCheck({}).check);
    t.setOwner('user-a');
    expect(stored(storage).map((j) => j.predictionId)).toEqual(['fresh']);
  });

  it("reports a refused check as 'Failed to check status: {text}' and drops the job", async () => {
    const storage = new MemoryStorage();
    const { check } = scriptedCheck({ 'job-1': [new ApiError(404, 'NOT_FOUND', 'Job not found.')] });
    const t = tracker(storage, check);
    t.setOwner('user-a');
    t.add(imageJob('job-1'));
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.takeOutcomes(() => true)).toEqual([expect.objectContaining({ status: 'failed', error: 'Failed to check status: Job not found.' })]);
    expect(stored(storage)).toEqual([]);
  });

  it("retries a check that could not be made, then reports 'Error checking job: {reason}'", async () => {
    const storage = new MemoryStorage();
    const offline = new ApiError(0, 'NETWORK_ERROR', 'Network error. Check your connection and try again.');
    const { check, calls } = scriptedCheck({ 'job-1': [offline] });
    const t = tracker(storage, check);
    t.setOwner('user-a');
    t.add(videoJob('job-1'));
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    // Passing trouble: still followed.
    expect(calls).toHaveLength(3);
    expect(stored(storage)).toHaveLength(1);
    expect(t.store.getState().outcomes).toEqual([]);
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(calls).toHaveLength(4);
    expect(t.takeOutcomes(() => true)).toEqual([
      expect.objectContaining({ status: 'failed', error: 'Error checking job: Network error. Check your connection and try again.' }),
    ]);
    expect(stored(storage)).toEqual([]);
  });

  it('recovers when a passing failure clears', async () => {
    const storage = new MemoryStorage();
    const { check } = scriptedCheck({
      'job-1': [new ApiError(503, 'UNAVAILABLE', 'Service Unavailable'), { status: 'succeeded', videoUrl: 'https://media.test/v.mp4', value: 2 }],
    });
    const t = tracker(storage, check);
    t.setOwner('user-a');
    t.add(videoJob('job-1'));
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 2);
    expect(t.takeOutcomes(() => true)).toEqual([expect.objectContaining({ status: 'succeeded', url: 'https://media.test/v.mp4' })]);
  });

  it('pauses on 401 without dropping the job, and resumes when asked', async () => {
    const storage = new MemoryStorage();
    const { check, calls } = scriptedCheck({ 'job-1': [new ApiError(401, 'UNAUTHORIZED', 'Unauthorized'), running()] });
    const t = tracker(storage, check);
    t.setOwner('user-a');
    t.add(imageJob('job-1'));
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    expect(calls).toHaveLength(1);
    expect(stored(storage)).toHaveLength(1);
    expect(t.store.getState().outcomes).toEqual([]);
    t.resume();
    await jest.advanceTimersByTimeAsync(0);
    expect(calls).toHaveLength(2);
  });

  it.each([
    ['image', 'failed', 'Image generation failed'],
    ['image', 'canceled', 'Image generation failed'],
    ['video', 'failed', 'Video generation failed'],
    ['video', 'canceled', 'Unknown error'],
  ] as const)('a %s job %s without an error text says %s', async (kind, status, message) => {
    const storage = new MemoryStorage();
    const { check } = scriptedCheck({ 'job-1': [{ status, value: 10 }] });
    const t = tracker(storage, check);
    t.setOwner('user-a');
    t.add(kind === 'image' ? imageJob('job-1') : videoJob('job-1'));
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.takeOutcomes(() => true)).toEqual([expect.objectContaining({ status, error: message })]);
  });

  it('a success without a result URL is reported as a failure', async () => {
    const storage = new MemoryStorage();
    const { check } = scriptedCheck({ 'img': [{ status: 'succeeded', value: 1 }], 'vid': [{ status: 'succeeded', value: 1 }] });
    const t = tracker(storage, check);
    t.setOwner('user-a');
    t.add(imageJob('img'));
    t.add(videoJob('vid'));
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.takeOutcomes((j) => j.kind === 'image')).toEqual([expect.objectContaining({ error: 'Image generation failed' })]);
    expect(t.takeOutcomes((j) => j.kind === 'video')).toEqual([expect.objectContaining({ error: 'Unknown error' })]);
  });

  it('hands each outcome to the page of its kind only, once', async () => {
    const storage = new MemoryStorage();
    const { check } = scriptedCheck({
      img: [{ status: 'succeeded', imageUrl: 'https://media.test/i.png', value: 1 }],
      vid: [{ status: 'succeeded', videoUrl: 'https://media.test/v.mp4', value: 1 }],
    });
    const t = tracker(storage, check);
    t.setOwner('user-a');
    t.add(imageJob('img'));
    t.add(videoJob('vid'));
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(t.takeOutcomes((j) => j.kind === 'video').map((o) => o.job.predictionId)).toEqual(['vid']);
    expect(t.takeOutcomes((j) => j.kind === 'video')).toEqual([]);
    expect(t.takeOutcomes((j) => j.kind === 'image').map((o) => o.job.predictionId)).toEqual(['img']);
  });

  it('two tabs sharing localStorage never drop each other\'s jobs', async () => {
    const storage = new MemoryStorage();
    const { check } = scriptedCheck({ 'tab-1-job': [running()], 'tab-2-job': [running()] });
    const tab1 = tracker(storage, check);
    const tab2 = tracker(storage, check);
    tab1.setOwner('user-a');
    tab2.setOwner('user-a');
    tab1.add(imageJob('tab-1-job'));
    tab2.add(imageJob('tab-2-job'));
    expect(stored(storage).map((j) => j.predictionId)).toEqual(['tab-1-job', 'tab-2-job']);
    // Tab 2 hears about tab 1's job through the storage event and follows it too.
    tab2.syncFromStorage();
    expect(tab2.store.getState().jobs.map((j) => j.predictionId)).toEqual(['tab-1-job', 'tab-2-job']);
  });

  it('a tab whose job another tab finished and took off the list asks once, and shows how it ended too', async () => {
    const storage = new MemoryStorage();
    const { check, calls } = scriptedCheck({ 'job-1': [running(), { status: 'succeeded', imageUrl: 'https://media.test/i.png', value: 4 }] });
    const tab1 = tracker(storage, check);
    const tab2 = tracker(storage, check);
    tab1.setOwner('user-a');
    tab2.setOwner('user-a');
    tab1.add(imageJob('job-1'));
    tab2.syncFromStorage();
    await jest.advanceTimersByTimeAsync(0);
    expect(calls).toEqual(['job-1']);
    // Tab 1 hears first that it ended, and takes it off the shared list.
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(tab1.takeOutcomes(() => true)).toHaveLength(1);
    expect(stored(storage)).toEqual([]);
    tab2.syncFromStorage();
    await jest.advanceTimersByTimeAsync(0);
    expect(tab2.takeOutcomes(() => true)).toEqual([expect.objectContaining({ status: 'succeeded', url: 'https://media.test/i.png' })]);
    const after = calls.length;
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS * 3);
    expect(calls).toHaveLength(after);
  });

  it('still follows a job in memory when localStorage refuses the write', async () => {
    const storage = new MemoryStorage();
    storage.failWrites = true;
    const { check, calls } = scriptedCheck({ 'job-1': [{ status: 'succeeded', imageUrl: 'https://media.test/i.png', value: 1 }] });
    const t = tracker(storage, check);
    t.setOwner('user-a');
    t.add(imageJob('job-1'));
    expect(t.store.getState().jobs.map((j) => j.predictionId)).toEqual(['job-1']);
    await jest.advanceTimersByTimeAsync(POLL_INTERVAL_MS);
    expect(calls).toEqual(['job-1']);
    expect(t.takeOutcomes(() => true)).toHaveLength(1);
  });
});

describe('parseJobs', () => {
  it('tolerates anything left in storage', () => {
    expect(parseJobs(null)).toEqual([]);
    expect(parseJobs('not json')).toEqual([]);
    expect(parseJobs('{"predictionId":"x"}')).toEqual([]);
    const jobs = parseJobs(
      JSON.stringify([
        { predictionId: 'a', prompt: 'p', createdAt: 1_700_000_000_000, kind: 'video', model: 'pixverse/pixverse-v4.5', options: { quality: '720p', bad: {} } },
        { predictionId: 'a', prompt: 'duplicate' },
        { predictionId: '', prompt: 'no id' },
        { predictionId: 'b', createdAt: '2025-06-07T10:00:00.000Z' },
      ]),
      42,
    );
    expect(jobs).toEqual([
      { predictionId: 'a', prompt: 'p', createdAt: 1_700_000_000_000, kind: 'video', model: 'pixverse/pixverse-v4.5', options: { quality: '720p' } },
      { predictionId: 'b', prompt: '', createdAt: Date.parse('2025-06-07T10:00:00.000Z'), kind: 'image', model: 'stability-ai/sdxl' },
    ]);
  });
});
