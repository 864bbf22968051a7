/**
 * `npm run capacity`: the capacity model of docs/capacity.md, recomputed from the contract's prices and the limits the
 * constructs synthesise (their own constants, the same the quota alarms watch). Prints, for each limit, its value, what
 * one million monthly users ask of it at peak, and the monthly users at which it bites.
 */
import { MAX_ACTIVE_JOBS } from '../contract/catalog';
import { OPEN_JOB_SHARDS, PARTITION_WRITES_PER_SECOND, REPLICATE_LIMITS } from '../contract/capacity';
import {
  CAPACITY_ASSUMPTIONS as A,
  creditsPerJob,
  DEMAND_PER_USER as D,
  DESIGN_HEADROOM,
  DESIGN_MAU,
  jobsPerUserMonth,
  peakJobs,
  runSeconds,
  saveSeconds,
} from '../contract/capacity-model';
import { BACKGROUND_FUNCTIONS } from '../contract/functions';
import { THROTTLES } from '../contract/throttles';
import { holdSecondsOf, RESERVED_CONCURRENCY } from '../lib/constructs/concurrency';
import { STAGE_THROTTLE } from '../lib/constructs/stage-access-logs';

const generationHold = holdSecondsOf({ id: 'generateImage', auth: 'user' });
const stream = BACKGROUND_FUNCTIONS.find((f) => f.id === 'saveJobOutput')!.trigger as { batchSize?: number; parallelization?: number };

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
    perUser: D.jobStartsPerSecond,
    capacity: ((stream.parallelization ?? 1) * (stream.batchSize ?? 10)) / saveSeconds,
    source: 'contract/functions.ts (saveJobOutput trigger), contract/stream-filters.ts',
  },
  {
    component: 'generate-image, reserved concurrency',
    limit: `${RESERVED_CONCURRENCY.generation} at once / ${generationHold} s a start (Prefer: wait)`,
    perUser: D.imageStartsPerSecond,
    capacity: RESERVED_CONCURRENCY.generation / generationHold,
    source: 'lib/constructs/concurrency.ts (a busy provider queues the start: steps/submit-or-queue.ts)',
  },
  {
    component: 'push channel stage throttle',
    limit: `${STAGE_THROTTLE.rateLimit} connects+pings/s`,
    perUser: D.pushRequestsPerSecond,
    capacity: STAGE_THROTTLE.rateLimit,
    source: 'lib/constructs/stage-access-logs.ts STAGE_THROTTLE (sized by the model), contract/live.ts LIVE_PING_INTERVAL_MS',
  },
  {
    component: 'check-status route throttle (polling)',
    limit: `${THROTTLES.polling.rateLimit} requests/s`,
    perUser: D.pollsPerSecond,
    capacity: THROTTLES.polling.rateLimit,
    source: 'contract/throttles.ts',
  },
  {
    component: 'generate-image route throttle (generation)',
    limit: `${THROTTLES.generation.rateLimit} requests/s`,
    perUser: D.imageStartsPerSecond,
    capacity: THROTTLES.generation.rateLimit,
    source: 'contract/throttles.ts',
  },
  {
    component: 'reconciler (asks only past the typical time)',
    limit: `${A.reconcilerJobsPerSecond * 24} jobs a run`,
    perUser: D.reconcilerJobsPerRun,
    capacity: A.reconcilerJobsPerSecond * 24,
    source: 'lambdas/app/reconcile-jobs.ts (PARALLEL, the 29 s timeout)',
  },
  {
    component: 'open-jobs index writes (sharded)',
    limit: `${OPEN_JOB_SHARDS} x ${PARTITION_WRITES_PER_SECOND} writes/s`,
    perUser: D.openJobIndexWritesPerSecond,
    capacity: OPEN_JOB_SHARDS * PARTITION_WRITES_PER_SECOND,
    source: 'contract/capacity.ts OPEN_JOB_SHARDS, lib/table-schema.ts',
  },
  {
    component: 'Replicate creates',
    limit: `${REPLICATE_LIMITS.createsPerMinute}/min`,
    perUser: D.providerCreatesPerMinute,
    capacity: REPLICATE_LIMITS.createsPerMinute,
    source: "contract/capacity.ts (Replicate's published limit; past it starts queue)",
  },
  {
    component: 'Replicate other requests',
    limit: `${REPLICATE_LIMITS.otherRequestsPerMinute}/min`,
    perUser: D.providerOtherRequestsPerMinute,
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
console.log(`Design point (Replicate's create limit): ${fmt(DESIGN_MAU)} monthly users; our throttles hold ${DESIGN_HEADROOM}x its peak.`);
