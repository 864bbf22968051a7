/**
 * The app's one job tracker, wired to the API, the credits store, the session and other tabs, and the hooks
 * pages use to show their jobs and react to their outcomes.
 */
import { skipToken, useQueries, type QueryFunction } from '@tanstack/react-query';
import { useEffect, useMemo, useRef } from 'react';
import { useStore } from 'zustand';
import { POLL_INTERVAL_MS } from '../../../../contract/catalog';
import type { LiveJob } from '../../../../contract/live';
import { api } from '../../lib/api-client';
import { useSessionStore } from '../auth';
import { setCredits } from '../credits';
import { queryClient } from '../../lib/query-client';
import { browserStorage } from '../../lib/browser-storage';
import { ACTIVE_JOBS_KEY, type ActiveJob } from './active-jobs';
import { noticeFinished } from './finished-notice';
import { createJobTracker, jobQueryKey, runningStatusOf, type JobFilter, type JobOutcome, type JobState, type RunningStatus } from './followed-jobs';

export const jobTracker = createJobTracker({
  storage: browserStorage(),
  check: (predictionId) => api.checkStatus({ params: { predictionId } }),
  onBalance: setCredits,
  intervalMs: POLL_INTERVAL_MS,
  queryClient,
});

function ownerOf(s: ReturnType<typeof useSessionStore.getState>): string | undefined {
  return s.status === 'signedIn' ? s.user?.sub : undefined;
}

jobTracker.setOwner(ownerOf(useSessionStore.getState()));
useSessionStore.subscribe((s, prev) => {
  if (ownerOf(s) !== ownerOf(prev)) jobTracker.setOwner(ownerOf(s));
});

/**
 * Pushes move jobs at once (app/live-handlers.ts hands them over); the spec's 5 s checks run only while the channel
 * is down.
 */
export function applyJobPush(job: LiveJob): void {
  jobTracker.applyPushed(job);
}
export function setJobsLive(live: boolean): void {
  jobTracker.setLive(live);
}

// Every job's end passes here once per tab, whichever page (if any) shows it.
jobTracker.store.subscribe((s, prev) => {
  for (const outcome of s.outcomes) if (!prev.outcomes.includes(outcome)) noticeFinished(outcome);
});
if (typeof window !== 'undefined') {
  window.addEventListener('storage', (event) => {
    if (event.key === ACTIVE_JOBS_KEY || event.key === null) jobTracker.syncFromStorage();
  });
}

/** Every job of the user's (the queue limit counts them all). */
export const isAnyJob: JobFilter = () => true;

/** The registry's words for what a page offers: an entry's id and the Replicate models it runs. */
export interface JobModels {
  id: string;
  runsOn: readonly string[];
}

/** Whether a job (or a result) is of the page's entries, by the model it names. */
export type ModelFilter = (job: Pick<ActiveJob, 'model'>) => boolean;

const modelFilters = new Map<string, ModelFilter>();
/**
 * A page's jobs: those of the registry entries it offers, found by the Replicate model a job runs (or by the entry's id
 * where a job names no Replicate model). One filter per set of entries, so hooks keyed on it keep still.
 */
export function jobsOf(models: readonly JobModels[]): ModelFilter {
  const key = models.map((m) => m.id).join(' ');
  let filter = modelFilters.get(key);
  if (!filter) {
    const names = new Set(models.flatMap((m) => [m.id, ...m.runsOn]));
    filter = (job) => names.has(job.model);
    modelFilters.set(key, filter);
  }
  return filter;
}

/**
 * The signed-in user's running jobs that the filter accepts, oldest first. Mounting also resumes polling of stored
 * jobs (after a reload, or jobs started in another tab), so every page that lists jobs keeps them moving.
 */
export function useActiveJobs(filter: JobFilter): ActiveJob[] {
  const jobs = useStore(jobTracker.store, (s) => s.jobs);
  const owner = useStore(jobTracker.store, (s) => s.owner);
  useEffect(() => {
    jobTracker.resume();
  }, []);
  return useMemo(() => jobs.filter((j) => owner !== undefined && j.owner === owner && filter(j)), [jobs, owner, filter]);
}

/** Each followed job's status while it runs, read from its query (`['job', id]`), which checks and pushes keep current. */
export function useJobStatuses(): Record<string, RunningStatus> {
  const jobs = useStore(jobTracker.store, (s) => s.jobs);
  // Read-only observers (skipToken: they never fetch); the tracker's own observers check and poll.
  return useQueries(
    {
      queries: jobs.map((j) => ({ queryKey: jobQueryKey(j.predictionId), queryFn: skipToken as QueryFunction<JobState> | typeof skipToken, staleTime: Infinity })),
      combine: (results) => {
        const statuses: Record<string, RunningStatus> = {};
        for (const [i, r] of results.entries()) {
          const status = runningStatusOf(r.data);
          if (status && jobs[i]) statuses[jobs[i].predictionId] = status;
        }
        return statuses;
      },
    },
    queryClient,
  );
}

/**
 * Calls `handle` once for every finished job the filter accepts, including those that ended while the page was
 * not shown.
 */
export function useJobOutcomes(filter: JobFilter, handle: (outcome: JobOutcome) => void): void {
  const outcomes = useStore(jobTracker.store, (s) => s.outcomes);
  const handleRef = useRef(handle);
  useEffect(() => {
    handleRef.current = handle;
  });
  useEffect(() => {
    if (outcomes.length === 0) return;
    for (const outcome of jobTracker.takeOutcomes(filter)) handleRef.current(outcome);
  }, [outcomes, filter]);
}

export type { ActiveJob, JobOutcome, RunningStatus };
