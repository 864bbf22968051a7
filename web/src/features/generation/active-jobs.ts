/**
 * The jobs this browser follows, as one small store persisted in localStorage 'activeJobs', so a reload, a closed tab
 * or a second tab can pick every job up again, plus the outcomes no page has shown yet. Each entry carries the spec's
 * predictionId, prompt and createdAt, plus what this app needs to route its outcome (kind, model, options) and whose
 * job it is. No job's status is kept here: that is its query's (followed-jobs.ts).
 */
import { createStore, type StoreApi } from 'zustand/vanilla';
import { STORAGE_KEYS } from '../../lib/browser-storage';
import { IMAGE_MODEL } from '../../../../contract/catalog';
import { isMediaKind, type MediaKind } from '../../../../contract/media-kinds';

export const ACTIVE_JOBS_KEY = STORAGE_KEYS.activeJobs;

export type JobKind = MediaKind;
export type JobOptions = Record<string, string | number | boolean>;

export interface ActiveJob {
  predictionId: string;
  prompt: string;
  /** When the job was started, in epoch milliseconds (this browser's clock). */
  createdAt: number;
  kind: JobKind;
  /** The Replicate model identifier. */
  model: string;
  /** The Cognito sub of the user who started it; only that user's session polls it. */
  owner?: string;
  /** What was asked for (duration, quality, start image), for the job list. */
  options?: JobOptions;
  /** The credits it was charged (for the cancel confirmation). */
  cost?: number;
}

/** Another user's jobs left in this browser are forgotten after a day (the server has long finished them). */
export const FOREIGN_JOB_TTL_MS = 24 * 60 * 60 * 1000;

function toMillis(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string') {
    const ms = Date.parse(value);
    return Number.isNaN(ms) ? undefined : ms;
  }
  return undefined;
}

function toOptions(value: unknown): JobOptions | undefined {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return undefined;
  const out: JobOptions = {};
  for (const [k, v] of Object.entries(value)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v;
  }
  return out;
}

/**
 * Reads the stored list, tolerating anything another version of the app (or a user) may have left there:
 * entries without a predictionId are dropped, the spec's bare {predictionId, prompt, createdAt} is an image job.
 */
export function parseJobs(raw: string | null | undefined, now = Date.now()): ActiveJob[] {
  if (!raw) return [];
  let data: unknown;
  try {
    data = JSON.parse(raw);
  } catch {
    return [];
  }
  if (!Array.isArray(data)) return [];
  const seen = new Set<string>();
  const jobs: ActiveJob[] = [];
  for (const entry of data) {
    if (typeof entry !== 'object' || entry === null) continue;
    const e = entry as Record<string, unknown>;
    const id = e.predictionId;
    if (typeof id !== 'string' || id.trim() === '' || seen.has(id)) continue;
    seen.add(id);
    // Entries stored before jobs recorded their kind were images.
    const kind: JobKind = isMediaKind(e.kind) ? e.kind : 'image';
    const options = toOptions(e.options);
    jobs.push({
      predictionId: id,
      prompt: typeof e.prompt === 'string' ? e.prompt : '',
      createdAt: toMillis(e.createdAt) ?? now,
      kind,
      model: typeof e.model === 'string' && e.model !== '' ? e.model : kind === 'image' ? IMAGE_MODEL.id : '',
      ...(typeof e.owner === 'string' && e.owner !== '' ? { owner: e.owner } : {}),
      ...(options ? { options } : {}),
      ...(typeof e.cost === 'number' && Number.isFinite(e.cost) ? { cost: e.cost } : {}),
    });
  }
  return jobs;
}

export function readJobs(storage: Storage | undefined): ActiveJob[] {
  if (!storage) return [];
  try {
    return parseJobs(storage.getItem(ACTIVE_JOBS_KEY));
  } catch {
    return [];
  }
}

export function writeJobs(storage: Storage | undefined, jobs: readonly ActiveJob[]): void {
  if (!storage) return;
  try {
    if (jobs.length === 0) storage.removeItem(ACTIVE_JOBS_KEY);
    else storage.setItem(ACTIVE_JOBS_KEY, JSON.stringify(jobs));
  } catch {
    // Full or disabled storage: the job still runs and is polled in this tab; it just will not survive a reload.
  }
}

export type JobOutcome =
  /** `note`: what the server said beside the result (a batch whose failed images were refunded). */
  | { job: ActiveJob; status: 'succeeded'; url: string; mediaId?: string; note?: string }
  | { job: ActiveJob; status: 'failed' | 'canceled'; error: string };

export type JobFilter = (job: ActiveJob) => boolean;

export interface FollowedJobsState {
  /** The signed-in user whose jobs are followed. */
  owner: string | undefined;
  /** Every stored job (other users' too: they are kept for when that user signs in again). */
  jobs: ActiveJob[];
  /** Finished jobs whose page has not shown them yet, oldest first. */
  outcomes: JobOutcome[];
}

export interface FollowedJobs {
  store: StoreApi<FollowedJobsState>;
  /** Changes the stored list, read from storage first so two tabs never drop each other's jobs. */
  change(edit: (stored: ActiveJob[]) => ActiveJob[]): void;
  /** Another tab changed the stored list. */
  reload(): void;
  /** The signed-in user changed: their outcomes start empty, and bare or recent jobs are adopted (see below). */
  setOwner(owner: string | undefined, now: number): void;
  /** A job ended: its page shows this when it next looks. */
  report(outcome: JobOutcome): void;
  /** Removes and returns the outcomes the filter accepts. */
  take(filter: JobFilter): JobOutcome[];
  /** Back to the stored list, with no owner and no outcomes. */
  reset(): void;
}

const MAX_OUTCOMES = 50;

/**
 * Persisted by hand rather than with zustand's `persist` middleware: that one writes the whole state as
 * `{ state, version }`, while 'activeJobs' must stay the spec's bare list, and it writes this tab's copy over the
 * stored one, while tabs share the list and must read it back before each change so none drops another's job.
 */
export function createFollowedJobs(storage: Storage | undefined): FollowedJobs {
  const store = createStore<FollowedJobsState>()(() => ({ owner: undefined, jobs: readJobs(storage), outcomes: [] }));

  function change(edit: (stored: ActiveJob[]) => ActiveJob[]): void {
    const next = edit(storage ? readJobs(storage) : store.getState().jobs);
    // A refused write (full or disabled storage) still leaves the job followed in this tab.
    writeJobs(storage, next);
    store.setState({ jobs: next });
  }

  return {
    store,
    change,
    reload() {
      if (storage) store.setState({ jobs: readJobs(storage) });
    },
    setOwner(owner, now) {
      store.setState({ owner, outcomes: [] });
      if (!owner) return;
      const cutoff = now - FOREIGN_JOB_TTL_MS;
      // Jobs stored without an owner (the spec's bare shape) belong to whoever signs in; stale foreign ones go.
      change((jobs) => jobs.map((j) => (j.owner ? j : { ...j, owner })).filter((j) => j.owner === owner || j.createdAt >= cutoff));
    },
    report(outcome) {
      store.setState((s) => ({ outcomes: [...s.outcomes, outcome].slice(-MAX_OUTCOMES) }));
    },
    take(filter) {
      const taken: JobOutcome[] = [];
      const kept: JobOutcome[] = [];
      for (const o of store.getState().outcomes) (filter(o.job) ? taken : kept).push(o);
      if (taken.length > 0) store.setState({ outcomes: kept });
      return taken;
    },
    reset() {
      store.setState({ owner: undefined, jobs: readJobs(storage), outcomes: [] });
    },
  };
}
