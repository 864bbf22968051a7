/**
 * The jobs this browser follows until they end, and how each ended. Which jobs: every stored job
 * of the signed-in user (localStorage 'activeJobs', shared by the tabs; a reload resumes them all at once), and any
 * job the server pushes (started in another tab). Their states are TanStack queries (`['job', id]`, GET
 * /api/check-status/{id}) in the app's query client: a push writes the state into the query at once; while the push
 * channel is down the queries poll every POLL_INTERVAL_MS (the spec's 5 s, TanStack's `refetchInterval`), and
 * while it is up nothing polls; a job's status is read from its query alone (the tiles too), and the small persisted
 * store (active-jobs.ts) keeps only what is the browser's own: which jobs it follows and the outcomes no page has
 * shown yet. The server settles jobs (webhooks, the reconciler, refunds); this only reports: the
 * balance a check returns (`value`), and one outcome per finished job, which the page of that kind picks up (image
 * preview, video preview or error line) even if the user was on another page when it ended.
 */
import { QueryObserver, type QueryClient, type QueryObserverOptions } from '@tanstack/react-query';
import type { StoreApi } from 'zustand/vanilla';
import type { LiveJob } from '../../../../contract/live';
import { MEDIA_KINDS } from '../../../../contract/media-kinds';
import type { CheckStatusResponse } from '../../../../contract/schemas';
import { ApiError } from '../../lib/api-client';
import { createQueryClient } from '../../lib/query-client';
import { createFollowedJobs, type ActiveJob, type FollowedJobsState, type JobFilter, type JobOutcome } from './active-jobs';
import { GenerationText } from './generation-messages';

export type RunningStatus = 'starting' | 'processing';

export type { JobFilter, JobOutcome };
export type JobTrackerState = FollowedJobsState;

export interface JobTrackerDeps {
  storage: Storage | undefined;
  check: (predictionId: string) => Promise<CheckStatusResponse>;
  /** A balance the server just returned. */
  onBalance: (credits: number) => void;
  /** How often a job is checked while the push channel is down. */
  intervalMs: number;
  /** Where job states are kept (the app's client; a fresh one by default). */
  queryClient?: QueryClient;
  now?: () => number;
  /** Checks that fail for a passing reason (network, 5xx, 429) are retried this many times in a row. */
  maxTransientFailures?: number;
}

export interface JobTracker {
  store: StoreApi<JobTrackerState>;
  /** Where each followed job's state is kept (`['job', id]`): the one owner of what the server said about it. */
  client: QueryClient;
  /** A followed job's last status while it runs (from its query), undefined once it ended or before anything is known. */
  statusOf(predictionId: string): RunningStatus | undefined;
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
  /** Stops every check and forgets everything (tests, sign-out of the whole app). */
  reset(): void;
  /** The user canceled a job and the server confirmed it: it ends now, with the server's words as its outcome. */
  canceled(predictionId: string, error: string): void;
  /**
   * A job's state pushed by the server (features/live): a running job of the owner is followed (started in another
   * tab too), a finished one reports its outcome here at once, even if another tab already took it off the list.
   */
  applyPushed(job: LiveJob): void;
  /**
   * Whether pushes are arriving. While they are, nothing is polled (the server's reconciler settles a job whose
   * webhook was lost, and its end is pushed); while they are not, every `intervalMs` as the spec says. On every
   * change each job is checked once, at once (a push may have been missed).
   */
  setLive(live: boolean): void;
}

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

export type JobState = Pick<CheckStatusResponse, 'status' | 'imageUrl' | 'videoUrl' | 'error' | 'mediaId'> & { value?: number };

export const jobQueryKey = (predictionId: string) => ['job', predictionId] as const;

/** A pushed job as a status answer (pushes carry no balance: the balance has its own pushes). */
function stateOf(pushed: LiveJob): JobState {
  return {
    status: pushed.status,
    ...(pushed.error ? { error: pushed.error } : {}),
    ...(pushed.mediaId ? { mediaId: pushed.mediaId } : {}),
    ...(pushed.url ? { [MEDIA_KINDS[pushed.kind].statusUrlField]: pushed.url } : {}),
  };
}

const isRunning = (status: string): status is RunningStatus => status === 'starting' || status === 'processing';

/** A job state's status while it runs (what a tile shows), undefined otherwise. */
export function runningStatusOf(state: Pick<JobState, 'status'> | undefined): RunningStatus | undefined {
  return state && isRunning(state.status) ? state.status : undefined;
}

export function createJobTracker(deps: JobTrackerDeps): JobTracker {
  const client = deps.queryClient ?? createQueryClient();
  const now = deps.now ?? (() => Date.now());
  const maxTransient = deps.maxTransientFailures ?? 3;

  const list = createFollowedJobs(deps.storage);
  const { store } = list;

  let live = false;
  /** Jobs this tab followed, so a pushed outcome still shows here after another tab took the job off the list. */
  const followed = new Map<string, ActiveJob>();
  /** One query observer per job being checked; its subscription ends when the job ends or is paused. */
  const observers = new Map<string, { observer: QueryObserver<JobState, unknown>; off: () => void }>();

  const mine = (job: ActiveJob, owner = store.getState().owner) => owner !== undefined && job.owner === owner;

  function options(id: string): QueryObserverOptions<JobState, unknown> {
    return {
      queryKey: jobQueryKey(id),
      queryFn: () => deps.check(id),
      // Pushes are the news while the channel is up; the spec's checks run only while it is down.
      refetchInterval: () => (live ? false : deps.intervalMs),
      refetchIntervalInBackground: true,
      staleTime: Infinity,
      retry: (failures, err) => isTransient(err) && failures < maxTransient,
      retryDelay: deps.intervalMs,
      networkMode: 'always',
    };
  }

  function persist(change: (stored: ActiveJob[]) => ActiveJob[]): void {
    list.change(change);
    for (const j of store.getState().jobs) followed.set(j.predictionId, j);
  }

  function stop(id: string): void {
    observers.get(id)?.off();
    observers.delete(id);
  }

  function finish(job: ActiveJob, outcome: JobOutcome | undefined): void {
    stop(job.predictionId);
    client.removeQueries({ queryKey: jobQueryKey(job.predictionId), exact: true });
    persist((jobs) => jobs.filter((j) => j.predictionId !== job.predictionId));
    if (outcome) list.report(outcome);
  }

  /** Follows a job's query: every new state (a check's answer or a push) is settled, a failed check reported. */
  function follow(job: ActiveJob): void {
    const id = job.predictionId;
    if (observers.has(id)) return;
    const observer = new QueryObserver<JobState, unknown>(client, options(id));
    let seenData = client.getQueryState(jobQueryKey(id))?.dataUpdatedAt ?? 0;
    let seenError = client.getQueryState(jobQueryKey(id))?.errorUpdatedAt ?? 0;
    const off = observer.subscribe((result) => {
      if (!observers.has(id)) return;
      if (result.dataUpdatedAt > seenData && result.data) {
        seenData = result.dataUpdatedAt;
        if (typeof result.data.value === 'number') deps.onBalance(result.data.value);
        settle(job, result.data);
      } else if (result.errorUpdatedAt > seenError && result.fetchStatus === 'idle') {
        seenError = result.errorUpdatedAt;
        // The session re-checks itself after a 401: paused until resume().
        if (result.error instanceof ApiError && result.error.status === 401) return stop(id);
        finish(job, { job, status: 'failed', error: checkErrorMessage(result.error) });
      }
    });
    observers.set(id, { observer, off });
    // A job with no state yet (after a reload) or a paused one is checked at once; one just started or pushed waits.
    const state = client.getQueryState(jobQueryKey(id));
    if (state?.data === undefined || state.status === 'error') void observer.refetch({ cancelRefetch: false });
  }

  /** What the server says about a job (a check's answer or a push): keep following it, or report how it ended. */
  function settle(job: ActiveJob, result: JobState): void {
    const id = job.predictionId;
    // Ended already (a push and its query's notification report the same state): reported once.
    if (!observers.has(id)) return;
    // Still running: its query holds the status the tiles show.
    if (isRunning(result.status)) return;
    if (result.status === 'succeeded') {
      const url = result[MEDIA_KINDS[job.kind].statusUrlField] ?? result.imageUrl ?? result.videoUrl;
      finish(
        job,
        url
          ? { job, status: 'succeeded', url, ...(result.mediaId ? { mediaId: result.mediaId } : {}), ...(result.error ? { note: result.error } : {}) }
          : { job, status: 'failed', error: result.error || fallbackError(job, 'succeeded') },
      );
      return;
    }
    const status = result.status === 'canceled' ? 'canceled' : 'failed';
    finish(job, { job, status, error: result.error || fallbackError(job, status) });
  }

  function resume(): void {
    const { owner, jobs } = store.getState();
    if (!owner) return;
    for (const job of jobs) if (mine(job, owner)) follow(job);
  }

  function stopAll(): void {
    for (const id of [...observers.keys()]) stop(id);
  }

  return {
    store,
    client,
    statusOf(predictionId) {
      return runningStatusOf(client.getQueryData<JobState>(jobQueryKey(predictionId)));
    },
    canceled(predictionId, error) {
      const job = store.getState().jobs.find((j) => j.predictionId === predictionId) ?? followed.get(predictionId);
      if (job) finish(job, { job, status: 'canceled', error });
    },
    setOwner(owner) {
      const before = store.getState().owner;
      if (owner !== before) {
        stopAll();
        client.removeQueries({ queryKey: ['job'] });
        list.setOwner(owner, now());
        if (owner) for (const j of store.getState().jobs) followed.set(j.predictionId, j);
      }
      resume();
    },
    add(input) {
      const owner = store.getState().owner;
      const job: ActiveJob = { ...input, ...(owner ? { owner } : {}) };
      persist((jobs) => [...jobs.filter((j) => j.predictionId !== job.predictionId), job]);
      if (!owner) return;
      // Accepted just now: starting, first checked after one interval (or moved by a push before that).
      if (client.getQueryData(jobQueryKey(job.predictionId)) === undefined) client.setQueryData<JobState>(jobQueryKey(job.predictionId), { status: 'starting' });
      follow(job);
    },
    resume,
    takeOutcomes: list.take,
    syncFromStorage() {
      if (!deps.storage) return;
      list.reload();
      const ids = new Set(store.getState().jobs.map((j) => j.predictionId));
      // A job this tab follows that another tab took off the list has ended there: ask now how, and show it here too.
      for (const [id, { observer }] of observers) if (!ids.has(id)) void observer.refetch({ cancelRefetch: false });
      resume();
    },
    applyPushed(pushed) {
      const owner = store.getState().owner;
      if (!owner) return;
      const id = pushed.predictionId;
      let job = store.getState().jobs.find((j) => j.predictionId === id);
      if (!job && isRunning(pushed.status)) {
        // Started in another tab (or on another device): followed here too.
        job = { predictionId: id, prompt: pushed.prompt, createdAt: pushed.createdAt, kind: pushed.kind, model: pushed.model, owner };
        const added = job;
        persist((jobs) => (jobs.some((j) => j.predictionId === id) ? jobs : [...jobs, added]));
      }
      job ??= followed.get(id);
      if (!job || !mine(job, owner)) return;
      if (!store.getState().jobs.some((j) => j.predictionId === id)) {
        // Another tab already took it off the shared list: this tab still shows how it ended, once.
        if (isRunning(pushed.status)) return;
        followed.delete(id);
        finish(job, undefined);
        settleEnded(job, stateOf(pushed));
        return;
      }
      // The push is the job's state now, kept in its query: a followed job is settled by its query's observer (at
      // once); one not followed yet (paused, or just adopted) is followed from this state on.
      const state = stateOf(pushed);
      const followedAlready = observers.has(id);
      client.setQueryData<JobState>(jobQueryKey(id), state);
      if (followedAlready) return;
      follow(job);
      settle(job, state);
    },
    setLive(on) {
      if (on === live) return;
      live = on;
      // Up again (or down): every job is checked now, then at the new pace (none while pushes arrive).
      for (const [id, { observer }] of observers) {
        observer.setOptions(options(id));
        void observer.refetch({ cancelRefetch: false });
      }
    },
    reset() {
      stopAll();
      client.removeQueries({ queryKey: ['job'] });
      followed.clear();
      live = false;
      list.reset();
    },
  };

  /** An outcome for a job no longer on the list (another tab took it off). */
  function settleEnded(job: ActiveJob, result: JobState): void {
    const url = result.imageUrl ?? result.videoUrl;
    const outcome: JobOutcome =
      result.status === 'succeeded' && url
        ? { job, status: 'succeeded', url, ...(result.mediaId ? { mediaId: result.mediaId } : {}), ...(result.error ? { note: result.error } : {}) }
        : { job, status: result.status === 'canceled' ? 'canceled' : 'failed', error: result.error || fallbackError(job, result.status === 'canceled' ? 'canceled' : 'failed') };
    list.report(outcome);
  }
}
