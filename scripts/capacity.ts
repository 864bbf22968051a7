/**
 * `npm run capacity`: the capacity model of docs/capacity.md, recomputed from the contract's prices and the limits the
 * constructs synthesise (their own constants, the same the quota alarms watch). Prints, for each limit, its value, what
 * one million monthly users ask of it at peak, and the monthly users at which it bites.
 */
import { IMAGE_COST, IMAGE_MODEL, MAX_ACTIVE_JOBS, POLL_INTERVAL_MS, priceVideo, SIGNUP_CREDITS, typicalMsOf, WAN_T2V } from '../contract/catalog';
import { OPEN_JOB_SHARDS, PARTITION_WRITES_PER_SECOND, REPLICATE_LIMITS } from '../contract/capacity';
import { BACKGROUND_FUNCTIONS } from '../contract/functions';
import { LIVE_PING_INTERVAL_MS } from '../contract/live';
import { CREDIT_PACKS } from '../contract/packs';
import { THROTTLES } from '../contract/throttles';
import { RESERVED_CONCURRENCY } from '../lib/constructs/concurrency';
import { STAGE_THROTTLE } from '../lib/constructs/stage-access-logs';

/** The assumptions (docs/capacity.md says why each). */
const A = {
  peakOverAverage: 3,
  /** Share of monthly users who buy the smallest pack once a month and spend it. */
  payingShare: 0.05,
  /** Share of monthly users who are new that month and spend their welcome credits. */
  newShare: 0.3,
  /** Share of jobs that are videos (the rest images). */
  videoShare: 0.2,
  /** Share of monthly users with the app open at the busiest hour, and their tabs. */
  openAtPeak: 0.004,
  /** Seconds a save takes in the stream (copy, probe, a video's poster): an image, a video. */
  saveSeconds: { image: 2, video: 8 },
  /** Seconds a create call takes at Replicate on a normal day. */
  createSeconds: 1,
  /** Predictions per job (a 10 s clip is two). */
  predictionsPerJob: 1.1,
  /** Provider reads per job besides its create (a late webhook's poll, the reconciler past the typical time, a cancel). */
  readsPerJob: 2,
  /** Share of open jobs past their model's typical time, the only ones the reconciler asks about. */
  pastTypicalShare: 0.1,
  /** Reconciler: jobs settled per second at 8 in parallel (a provider read and a write each). */
  reconcilerJobsPerSecond: 16,
  /** Share of running jobs polled (their tab has no push channel). */
  pollingShare: 0.2,
};

const videoCost = (() => {
  const p = priceVideo(WAN_T2V, 5);
  return 'credits' in p ? (p as { credits: number }).credits : 8;
})();
const pack = CREDIT_PACKS[0]!;
const creditsPerJob = (1 - A.videoShare) * IMAGE_COST + A.videoShare * videoCost;
const jobsPerUserMonth = A.payingShare * (pack.credits / creditsPerJob) + A.newShare * (SIGNUP_CREDITS / creditsPerJob);
/** Peak job starts a second for this many monthly users. */
const peakJobs = (mau: number) => ((mau * jobsPerUserMonth) / (30 * 86_400)) * A.peakOverAverage;
const runSeconds = (1 - A.videoShare) * (typicalMsOf(IMAGE_MODEL.id) / 1000) + A.videoShare * (typicalMsOf(WAN_T2V) / 1000);

const stream = BACKGROUND_FUNCTIONS.find((f) => f.id === 'saveJobOutput')!.trigger as { batchSize?: number; parallelization?: number };
const saveSeconds = (1 - A.videoShare) * A.saveSeconds.image + A.videoShare * A.saveSeconds.video;

interface Limit {
  component: string;
  limit: string;
  /** What one monthly user asks of it at peak, in the limit's unit. */
  perUser: number;
  capacity: number;
  source: string;
}

const M = 1_000_000;
const tabs = (mau: number) => mau * A.openAtPeak;
const limits: Limit[] = [
  {
    component: 'saveJobOutput on the stream (filtered, parallel per shard)',
    limit: `${stream.parallelization ?? 1} batches x ${stream.batchSize} per shard / ${saveSeconds.toFixed(1)} s a save`,
    perUser: peakJobs(1),
    capacity: ((stream.parallelization ?? 1) * (stream.batchSize ?? 10)) / saveSeconds,
    source: 'contract/functions.ts (saveJobOutput trigger), contract/stream-filters.ts',
  },
  {
    component: 'generate-image, reserved concurrency',
    limit: `${RESERVED_CONCURRENCY.generation} at once / ${A.createSeconds} s a create`,
    perUser: peakJobs(1) * (1 - A.videoShare),
    capacity: RESERVED_CONCURRENCY.generation / A.createSeconds,
    source: 'lib/constructs/concurrency.ts (a busy provider queues the start: steps/submit-or-queue.ts)',
  },
  {
    component: 'push channel stage throttle',
    limit: `${STAGE_THROTTLE.rateLimit} connects+pings/s`,
    perUser: A.openAtPeak * (1000 / LIVE_PING_INTERVAL_MS + 1 / 7_200),
    capacity: STAGE_THROTTLE.rateLimit,
    source: 'lib/constructs/stage-access-logs.ts STAGE_THROTTLE, contract/live.ts LIVE_PING_INTERVAL_MS',
  },
  {
    component: 'check-status route throttle (polling)',
    limit: `${THROTTLES.polling.rateLimit} requests/s`,
    perUser: (peakJobs(1) * runSeconds * A.pollingShare * 1000) / POLL_INTERVAL_MS,
    capacity: THROTTLES.polling.rateLimit,
    source: 'contract/throttles.ts',
  },
  {
    component: 'generate-image route throttle (rest)',
    limit: `${THROTTLES.rest.rateLimit} requests/s`,
    perUser: peakJobs(1) * (1 - A.videoShare),
    capacity: THROTTLES.rest.rateLimit,
    source: 'contract/throttles.ts',
  },
  {
    component: 'reconciler (asks only past the typical time)',
    limit: `${A.reconcilerJobsPerSecond * 24} jobs a run`,
    perUser: peakJobs(1) * (runSeconds + 60) * A.pastTypicalShare,
    capacity: A.reconcilerJobsPerSecond * 24,
    source: 'lambdas/app/reconcile-jobs.ts (PARALLEL, the 29 s timeout)',
  },
  {
    component: 'open-jobs index writes (sharded)',
    limit: `${OPEN_JOB_SHARDS} x ${PARTITION_WRITES_PER_SECOND} writes/s`,
    perUser: peakJobs(1) * 2,
    capacity: OPEN_JOB_SHARDS * PARTITION_WRITES_PER_SECOND,
    source: 'contract/capacity.ts OPEN_JOB_SHARDS, lib/table-schema.ts',
  },
  {
    component: 'Replicate creates',
    limit: `${REPLICATE_LIMITS.createsPerMinute}/min`,
    perUser: peakJobs(1) * A.predictionsPerJob * 60,
    capacity: REPLICATE_LIMITS.createsPerMinute,
    source: "contract/capacity.ts (Replicate's published limit; past it starts queue)",
  },
  {
    component: 'Replicate other requests',
    limit: `${REPLICATE_LIMITS.otherRequestsPerMinute}/min`,
    perUser: peakJobs(1) * A.readsPerJob * 60,
    capacity: REPLICATE_LIMITS.otherRequestsPerMinute,
    source: "contract/capacity.ts (Replicate's published limit)",
  },
];

const fmt = (n: number) => (n >= 1e9 ? `${(n / 1e9).toFixed(1)}B` : n >= 1e6 ? `${(n / 1e6).toFixed(1)}M` : n >= 1e3 ? `${(n / 1e3).toFixed(0)}k` : n.toFixed(1));
console.log(`Assumptions: ${JSON.stringify(A)}`);
console.log(
  `Derived: ${creditsPerJob.toFixed(2)} credits a job, ${jobsPerUserMonth.toFixed(2)} jobs per monthly user, ${runSeconds.toFixed(0)} s a run; at 1M monthly users ${peakJobs(M).toFixed(2)} job starts/s at peak, ${fmt(tabs(M))} open tabs, ${MAX_ACTIVE_JOBS} running jobs per user at most\n`,
);
const rows = limits.map((l) => [l.component, l.limit, (l.perUser * M).toFixed(2), fmt(l.capacity / l.perUser), l.source]);
const headers = ['component', 'limit', 'at 1M MAU (same unit)', 'bites at (MAU)', 'source'];
const widths = headers.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
const line = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
console.log([line(headers), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)].join('\n'));
const first = limits.reduce((a, b) => (a.capacity / a.perUser < b.capacity / b.perUser ? a : b));
console.log(`\nFirst to bite: ${first.component}, at ${fmt(first.capacity / first.perUser)} monthly users.`);
