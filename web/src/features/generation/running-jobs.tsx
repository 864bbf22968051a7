import { modelOfReplicate, runOf } from '../../../../contract/models';
import { Spinner } from '../../components/spinner';
import { cx } from '../../lib/cx';
import type { ActiveJob } from './active-jobs';
import { CancelJobButton } from './cancel-job';
import { GenerationText } from './generation-messages';
import type { RunningStatus } from './followed-jobs';
import { formatClock, formatSpan, useNow } from './use-now';

/** The longest a video usually takes, for each prediction it runs. */
export const VIDEO_MAX_SECONDS = 180;

/** What this job usually takes: a clip made in several segments runs a prediction for each, one after another. */
function runOfJob(job: ActiveJob): { predictions: number; typicalSeconds: number } {
  const model = modelOfReplicate(job.model);
  return model ? runOf(model, job.options ?? {}) : { predictions: 1, typicalSeconds: 60 };
}

function elapsedSeconds(job: ActiveJob, now: number): number {
  return Math.max(0, (now - job.createdAt) / 1000);
}

/** What was asked for: "5 s · 720p · from image". */
function describeJob(job: ActiveJob): string {
  const parts: string[] = [];
  const o = job.options ?? {};
  if (typeof o.duration === 'number') parts.push(`${o.duration} s clip`);
  if (typeof o.quality === 'string') parts.push(o.quality);
  if (o.startImage === true) parts.push('from image');
  return parts.join(' · ');
}

export interface JobListProps {
  jobs: readonly ActiveJob[];
  statuses: Record<string, RunningStatus>;
  /** A cancel that failed, for the page's error line. */
  onError: (message: string) => void;
}

const statusLabel = (status: RunningStatus | undefined) => (status === 'processing' ? 'Rendering' : 'Starting');

export interface JobProgressProps {
  job: ActiveJob;
  status: RunningStatus | undefined;
  now: number;
  className?: string;
}

/**
 * A video job's progress: a video can take up to 3 minutes, so the user sees the time so far against the model's
 * typical time (contract catalog), not just a spinner. Past the typical time the bar turns indeterminate.
 */
export function JobProgress({ job, status, now, className }: JobProgressProps) {
  const { predictions, typicalSeconds: typical } = runOfJob(job);
  const longest = VIDEO_MAX_SECONDS * predictions;
  const elapsed = elapsedSeconds(job, now);
  const over = elapsed > typical;
  const percent = Math.min(95, Math.round((elapsed / typical) * 100));
  const details = describeJob(job);
  return (
    <div className={cx('flex flex-col gap-2', className)}>
      <div className="flex items-baseline justify-between gap-3 text-sm">
        <span className="min-w-0 break-words text-ink">{GenerationText.generatingJob(job.prompt)}</span>
        <span className="shrink-0 text-xs text-ink-subtle">{statusLabel(status)}</span>
      </div>
      <div
        role="progressbar"
        aria-label={`Progress of ${job.prompt || 'the video'}`}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={over ? undefined : percent}
        aria-valuetext={`${formatClock(elapsed)} elapsed, usually about ${formatSpan(typical)}`}
        className="relative h-2 overflow-hidden rounded-pill bg-surface-hover"
      >
        {over ? (
          <div className="absolute inset-y-0 w-1/3 animate-pulse rounded-pill bg-gradient-to-r from-brand to-accent" style={{ left: '33%' }} />
        ) : (
          <div className="h-full rounded-pill bg-gradient-to-r from-brand to-accent transition-[width] duration-1000 ease-linear" style={{ width: `${percent}%` }} />
        )}
      </div>
      <p className="flex flex-wrap justify-between gap-x-3 text-xs text-ink-subtle">
        <span className="tabular-nums">
          {formatClock(elapsed)} elapsed · usually about {formatSpan(typical)}
        </span>
        {details && <span>{details}</span>}
      </p>
      {over && (
        <p className="text-xs text-ink-muted">
          {elapsed > longest
            ? 'This is taking longer than usual. You can leave this page: the video will appear in Previous Videos when it is ready.'
            : predictions > 1
              ? `Taking a little longer than usual. This clip is made in ${predictions} parts and can take up to ${formatSpan(longest)}.`
              : 'Taking a little longer than usual. A video can take up to 3 minutes.'}
        </p>
      )}
    </div>
  );
}

/**
 * When a job not yet begun by the provider is given up (the create's Cancel-After, our own deadline for its run: the
 * model's maximum run time from the start), as a local time; none for a clip made in parts, whose later parts have
 * deadlines of their own.
 */
function startDeadline(job: ActiveJob): string | undefined {
  const model = modelOfReplicate(job.model);
  if (!model || runOfJob(job).predictions > 1) return undefined;
  return new Date(job.createdAt + model.maxRunSeconds * 1000).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
}

const ordinal = (n: number) => `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;

export interface JobTilesProps extends JobListProps {
  /** Every running job of the user's, oldest first (the queue spans the generators). */
  queue: readonly ActiveJob[];
}

/**
 * A generator's running jobs as tiles at the top of its results: the prompt in full, the model, a progress estimate
 * from the model's typical time, the place in the user's queue while the provider has not begun it, and Cancel.
 * Nothing else on the page waits for them.
 */
export function JobTiles({ jobs, queue, statuses, onError }: JobTilesProps) {
  const now = useNow(jobs.length > 0);
  if (jobs.length === 0) return null;
  const waiting = queue.filter((j) => statuses[j.predictionId] !== 'processing');
  return (
    <section aria-labelledby="running-jobs-title" className="flex flex-col gap-3">
      <h2 id="running-jobs-title" className="text-lg font-semibold text-ink">
        Running
      </h2>
      <ul aria-label="Running jobs" className="grid gap-3 sm:grid-cols-2">
        {jobs.map((job) => {
          const status = statuses[job.predictionId];
          const place = waiting.findIndex((j) => j.predictionId === job.predictionId);
          return (
            <li key={job.predictionId} className="flex flex-col gap-3 rounded-card border border-line bg-surface-raised p-4 shadow-card" data-testid="job-tile">
              <p className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-ink-subtle">
                <Spinner size="sm" decorative className="text-brand-ink" />
                <span className="font-medium text-ink-muted">{modelOfReplicate(job.model)?.name ?? job.model}</span>
                {status !== 'processing' && place >= 0 && <span>· {ordinal(place + 1)} in your queue</span>}
              </p>
              <JobProgress job={job} status={status} now={now} />
              {status !== 'processing' && startDeadline(job) && (
                <p className="text-xs text-ink-subtle">If it has not started by {startDeadline(job)}, it is cancelled and refunded.</p>
              )}
              <div className="flex justify-end">
                <CancelJobButton job={job} status={status} onError={onError} />
              </div>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
