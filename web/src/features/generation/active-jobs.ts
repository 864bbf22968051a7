/**
 * Running generation jobs as the browser keeps them: localStorage 'activeJobs', so a reload,
 * a closed tab or a second tab can pick every job up again. Each entry carries the spec's predictionId, prompt
 * and createdAt, plus what this app needs to route its outcome (kind, model, options) and whose job it is.
 */
import { STORAGE_KEYS } from '../../lib/browser-storage';
import { IMAGE_MODEL } from '../../../../contract/catalog';

export const ACTIVE_JOBS_KEY = STORAGE_KEYS.activeJobs;

export type JobKind = 'image' | 'video';
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
    const kind: JobKind = e.kind === 'video' ? 'video' : 'image';
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
