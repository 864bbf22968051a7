/**
 * Follows running generation jobs until they end (spec section 4): every stored job of the signed-in user is
 * checked with GET /api/check-status/{id} every POLL_INTERVAL_MS while it is starting or processing; a reload
 * resumes every stored job at once. The server settles jobs (webhooks, refunds); the tracker only reports:
 * the balance it returns (`value`), and one outcome per finished job, which the page of that kind picks up
 * (image preview, video preview or error line) even if the user was on another page when it ended.
 *
 * Built from ports (storage, check, timers) so tests drive it without a server or real time.
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import type { LiveJob } from '../../../../contract/live';
import type { CheckStatusResponse } from '../../../../contract/schemas';
import { ApiError } from '../../lib/api-client';
import { FOREIGN_JOB_TTL_MS, readJobs, writeJobs, type ActiveJob } from './active-jobs';
import { GenerationText } from './generation-messages';

export type RunningStatus = 'starting' | 'processing';

export type JobOutcome =
  | { job: ActiveJob; status: 'succeeded'; url: string; mediaId?: string }
  | { job: ActiveJob; status: 'failed' | 'canceled'; error: string };

export interface JobTrackerState {
  /** The signed-in user whose jobs are polled. */
  owner: string | undefined;
  /** Every stored job (other users' too: they are kept for when that user signs in again). */
  jobs: ActiveJob[];
  /** The last status the server reported per job. */
  statuses: Record<string, RunningStatus>;
  /** Finished jobs whose page has not shown them yet, oldest first. */
  outcomes: JobOutcome[];
}

export interface JobTrackerDeps {
  storage: Storage | undefined;
  check: (predictionId: string) => Promise<CheckStatusResponse>;
  /** A balance the server just returned. */
  onBalance: (credits: number) => void;
  intervalMs: number;
  now?: () => number;
  setTimer?: (fn: () => void, ms: number) => unknown;
  clearTimer?: (handle: unknown) => void;
  /** Checks that fail for a passing reason (network, 5xx, 429) are retried this many times in a row. */
  maxTransientFailures?: number;
  /** How often a job is checked while pushes arrive (default 30 s). */
  liveIntervalMs?: number;
}

export type JobFilter = (job: ActiveJob) => boolean;

export interface JobTracker {
  store: StoreApi<JobTrackerState>;
  /** The signed-in user changed (undefined: signed out). Stops polling other users' jobs. */
  setOwner(owner: string | undefined): void;
  /** A job the server just accepted: stored at once, first checked after one interval. */
  add(job: Omit<ActiveJob, 'owner'>): void;
  /** Checks the owner's stored jobs that are not being followed yet, at once (after a load or a pause). */
  resume(): void;
  /** Removes and returns the outcomes the filter accepts. */
  takeOutcomes(filter: JobFilter): JobOutcome[];
  /** Another tab changed the stored list. */
  syncFromStorage(): void;
  /** Stops every timer and forgets everything (tests, sign-out of the whole app). */
  reset(): void;
  /**
   * A job's state pushed by the server (features/live): a running job of the owner is followed (started in another
   * tab too), a finished one reports its outcome here at once, even if another tab already took it off the list.
   */
  applyPushed(job: LiveJob): void;
  /**
   * Whether pushes are arriving. While they are, jobs are only checked every `liveIntervalMs` (a safety net for a
   * lost webhook); while they are not, every `intervalMs` as the spec says. Back up: every job is checked once, at once.
   */
  setLive(live: boolean): void;
}

const MAX_OUTCOMES = 50;

function fallbackError(job: ActiveJob, status: 'failed' | 'canceled' | 'succeeded'): string {
  if (job.kind === 'image') return GenerationText.imageGenerationFailed;
  return status === 'failed' ? GenerationText.videoGenerationFailed : GenerationText.unknownError;
}

function isTransient(err: unknown): boolean {
  return err instanceof ApiError && (err.status === 0 || err.status === 429 || err.status >= 500);
}

/** The spec's two job-check messages: a refused check, or a check that could not be made at all. */
export function checkErrorMessage(err: unknown): string {
  if (err instanceof ApiError && err.status > 0) return GenerationText.checkStatusFailed(err.message);
  return GenerationText.checkJobError(err instanceof Error ? err.message : String(err));
}

export function createJobTracker(deps: JobTrackerDeps): JobTracker {
  const now = deps.now ?? (() => Date.now());
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((h) => clearTimeout(h as ReturnType<typeof setTimeout>));
  const maxTransient = deps.maxTransientFailures ?? 3;

  const store = createStore<JobTrackerState>()(() => ({
    owner: undefined,
    jobs: readJobs(deps.storage),
    statuses: {},
    outcomes: [],
  }));

  const liveInterval = deps.liveIntervalMs ?? 30_000;
  let live = false;
  const interval = () => (live ? liveInterval : deps.intervalMs);
  /** Jobs this tab followed, so a pushed outcome still shows here after another tab took the job off the list. */
  const followed = new Map<string, ActiveJob>();
  const timers = new Map<string, unknown>();
  const inflight = new Set<string>();
  const failures = new Map<string, number>();

  const mine = (job: ActiveJob, owner = store.getState().owner) => owner !== undefined && job.owner === owner;

  /** Read-modify-write, so two tabs never drop each other's jobs. */
  function persist(change: (stored: ActiveJob[]) => ActiveJob[]): void {
    const next = change(deps.storage ? readJobs(deps.storage) : store.getState().jobs);
    // A refused write (full or disabled storage) still leaves the job followed in this tab.
    writeJobs(deps.storage, next);
    store.setState({ jobs: next });
    for (const j of next) followed.set(j.predictionId, j);
  }

  function stop(id: string): void {
    const handle = timers.get(id);
    if (handle !== undefined) clearTimer(handle);
    timers.delete(id);
  }

  function schedule(id: string, delay: number): void {
    stop(id);
    timers.set(
      id,
      setTimer(() => {
        timers.delete(id);
        void poll(id);
      }, delay),
    );
  }

  function finish(job: ActiveJob, outcome: JobOutcome | undefined): void {
    stop(job.predictionId);
    failures.delete(job.predictionId);
    persist((jobs) => jobs.filter((j) => j.predictionId !== job.predictionId));
    store.setState((s) => {
      const statuses = { ...s.statuses };
      delete statuses[job.predictionId];
      const outcomes = outcome ? [...s.outcomes, outcome].slice(-MAX_OUTCOMES) : s.outcomes;
      return { statuses, outcomes };
    });
  }

  async function poll(id: string): Promise<void> {
    const owner = store.getState().owner;
    const job = store.getState().jobs.find((j) => j.predictionId === id);
    if (!job || !mine(job, owner) || inflight.has(id)) return;
    inflight.add(id);
    try {
      let result: CheckStatusResponse;
      try {
        result = await deps.check(id);
      } catch (err) {
        // Signed out or switched user meanwhile, or another tab finished it: not ours to report.
        if (store.getState().owner !== owner || !store.getState().jobs.some((j) => j.predictionId === id)) return;
        if (err instanceof ApiError && err.status === 401) return; // the session re-checks itself; resume() picks it up
        const count = (failures.get(id) ?? 0) + 1;
        if (isTransient(err) && count <= maxTransient) {
          failures.set(id, count);
          schedule(id, interval());
          return;
        }
        finish(job, { job, status: 'failed', error: checkErrorMessage(err) });
        return;
      }
      if (store.getState().owner !== owner) return;
      failures.delete(id);
      if (typeof result.value === 'number') deps.onBalance(result.value);
      if (!store.getState().jobs.some((j) => j.predictionId === id)) return;
      settle(job, result);
    } finally {
      inflight.delete(id);
    }
  }

  /** What the server says about a job (a check's answer or a push): keep following it, or report how it ended. */
  function settle(job: ActiveJob, result: Pick<CheckStatusResponse, 'status' | 'imageUrl' | 'videoUrl' | 'error' | 'mediaId'>): void {
    const id = job.predictionId;
    switch (result.status) {
      case 'starting':
      case 'processing':
        store.setState((s) => ({ statuses: { ...s.statuses, [id]: result.status as RunningStatus } }));
        schedule(id, interval());
        return;
      case 'succeeded': {
        const url = job.kind === 'image' ? (result.imageUrl ?? result.videoUrl) : (result.videoUrl ?? result.imageUrl);
        finish(
          job,
          url
            ? { job, status: 'succeeded', url, ...(result.mediaId ? { mediaId: result.mediaId } : {}) }
            : { job, status: 'failed', error: result.error || fallbackError(job, 'succeeded') },
        );
        return;
      }
      default:
        finish(job, { job, status: result.status, error: result.error || fallbackError(job, result.status) });
    }
  }

  function resume(): void {
    const { owner, jobs } = store.getState();
    if (!owner) return;
    for (const job of jobs) {
      if (mine(job, owner) && !timers.has(job.predictionId) && !inflight.has(job.predictionId)) schedule(job.predictionId, 0);
    }
  }

  return {
    store,
    setOwner(owner) {
      const before = store.getState().owner;
      if (owner !== before) {
        for (const id of [...timers.keys()]) stop(id);
        failures.clear();
        store.setState({ owner, statuses: {}, outcomes: [] });
        if (owner) {
          const cutoff = now() - FOREIGN_JOB_TTL_MS;
          // Jobs stored without an owner (the spec's bare shape) belong to whoever signs in; stale foreign ones go.
          persist((jobs) =>
            jobs
              .map((j) => (j.owner ? j : { ...j, owner }))
              .filter((j) => j.owner === owner || j.createdAt >= cutoff),
          );
        }
      }
      resume();
    },
    add(input) {
      const owner = store.getState().owner;
      const job: ActiveJob = { ...input, ...(owner ? { owner } : {}) };
      persist((jobs) => [...jobs.filter((j) => j.predictionId !== job.predictionId), job]);
      store.setState((s) => ({ statuses: { ...s.statuses, [job.predictionId]: 'starting' } }));
      if (owner) schedule(job.predictionId, interval());
    },
    resume,
    takeOutcomes(filter) {
      const taken: JobOutcome[] = [];
      const kept: JobOutcome[] = [];
      for (const o of store.getState().outcomes) (filter(o.job) ? taken : kept).push(o);
      if (taken.length > 0) store.setState({ outcomes: kept });
      return taken;
    },
    syncFromStorage() {
      if (!deps.storage) return;
      const jobs = readJobs(deps.storage);
      const ids = new Set(jobs.map((j) => j.predictionId));
      for (const id of [...timers.keys()]) if (!ids.has(id)) stop(id);
      store.setState((s) => ({
        jobs,
        statuses: Object.fromEntries(Object.entries(s.statuses).filter(([id]) => ids.has(id))),
      }));
      resume();
    },
    applyPushed(pushed) {
      const owner = store.getState().owner;
      if (!owner) return;
      const id = pushed.predictionId;
      let job = store.getState().jobs.find((j) => j.predictionId === id);
      if (!job && (pushed.status === 'starting' || pushed.status === 'processing')) {
        // Started in another tab (or on another device): followed here too.
        job = { predictionId: id, prompt: pushed.prompt, createdAt: pushed.createdAt, kind: pushed.kind, model: pushed.model, owner };
        const added = job;
        persist((jobs) => (jobs.some((j) => j.predictionId === id) ? jobs : [...jobs, added]));
      }
      job ??= followed.get(id);
      if (!job || !mine(job, owner)) return;
      if (!store.getState().jobs.some((j) => j.predictionId === id)) {
        // Another tab already took it off the shared list: this tab still shows how it ended, once.
        if (pushed.status === 'starting' || pushed.status === 'processing') return;
        followed.delete(id);
        finish(job, undefined);
        const ended = job;
        const url = pushed.url;
        const outcome: JobOutcome =
          pushed.status === 'succeeded' && url
            ? { job: ended, status: 'succeeded', url, ...(pushed.mediaId ? { mediaId: pushed.mediaId } : {}) }
            : { job: ended, status: pushed.status === 'canceled' ? 'canceled' : 'failed', error: pushed.error || fallbackError(ended, pushed.status === 'canceled' ? 'canceled' : 'failed') };
        store.setState((s) => ({ outcomes: [...s.outcomes, outcome].slice(-MAX_OUTCOMES) }));
        return;
      }
      settle(job, { status: pushed.status, error: pushed.error, mediaId: pushed.mediaId, ...(pushed.kind === 'image' ? { imageUrl: pushed.url } : { videoUrl: pushed.url }) });
    },
    setLive(on) {
      if (on === live) return;
      live = on;
      // Up again (or down): every job is checked now, then at the new pace.
      for (const id of [...timers.keys()]) stop(id);
      resume();
    },
    reset() {
      for (const id of [...timers.keys()]) stop(id);
      failures.clear();
      inflight.clear();
      followed.clear();
      live = false;
      store.setState({ owner: undefined, jobs: readJobs(deps.storage), statuses: {}, outcomes: [] });
    },
  };
}
