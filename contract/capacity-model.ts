/**
 * The capacity model's demand side (docs/capacity.md): what one monthly user asks of each limit at the busiest hour,
 * from the contract's prices and the assumptions below. `npm run capacity` sets it against the limits the constructs
 * synthesise; the push channel's stage throttle is sized from it (lib/constructs/stage-access-logs.ts), and
 * test/domain/capacity.test.ts holds every throttle of ours above what the model asks of it at the design point.
 */
import { IMAGE_COST, IMAGE_MODEL, POLL_INTERVAL_MS, SIGNUP_CREDITS, typicalMsOf, WAN_T2V } from './catalog';
import { priceOf, wan } from './models';
import { REPLICATE_LIMITS } from './capacity';
import { LIVE_PING_INTERVAL_MS } from './live';
import { CREDIT_PACKS } from './packs';

/** The assumptions (docs/capacity.md says why each). */
export const CAPACITY_ASSUMPTIONS = {
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
  /**
   * Predictions per job (a 10 s clip is two; a batch of n images is n, but an image is modelled at one credit a job,
   * so creates per credit spent are the same).
   */
  predictionsPerJob: 1.1,
  /** Provider reads per job besides its create (a late webhook's poll, the reconciler past the typical time, a cancel). */
  readsPerJob: 2,
  /** Share of open jobs past their model's typical time, the only ones the reconciler asks about. */
  pastTypicalShare: 0.1,
  /** Reconciler: jobs settled per second at 8 in parallel (a provider read and a write each). */
  reconcilerJobsPerSecond: 16,
  /** Share of running jobs polled (their tab has no push channel). */
  pollingShare: 0.2,
} as const;

const A = CAPACITY_ASSUMPTIONS;
const videoCost = (() => {
  const p = priceOf(wan, { duration: 5 });
  return p.ok ? p.cost : 8;
})();
const pack = CREDIT_PACKS[0]!;

export const creditsPerJob = (1 - A.videoShare) * IMAGE_COST + A.videoShare * videoCost;
export const jobsPerUserMonth = A.payingShare * (pack.credits / creditsPerJob) + A.newShare * (SIGNUP_CREDITS / creditsPerJob);
/** Seconds a job runs at the provider, on average. */
export const runSeconds = (1 - A.videoShare) * (typicalMsOf(IMAGE_MODEL.id) / 1000) + A.videoShare * (typicalMsOf(WAN_T2V) / 1000);
/** Seconds a save takes in the stream, on average. */
export const saveSeconds = (1 - A.videoShare) * A.saveSeconds.image + A.videoShare * A.saveSeconds.video;

/** Peak job starts a second for this many monthly users. */
export const peakJobs = (mau: number) => ((mau * jobsPerUserMonth) / (30 * 86_400)) * A.peakOverAverage;

/** What one monthly user asks at the busiest hour, in each limit's unit. */
export const DEMAND_PER_USER = {
  jobStartsPerSecond: peakJobs(1),
  imageStartsPerSecond: peakJobs(1) * (1 - A.videoShare),
  /** Connects and keep-alive pings on the push channel. */
  pushRequestsPerSecond: A.openAtPeak * (1000 / LIVE_PING_INTERVAL_MS + 1 / 7_200),
  pollsPerSecond: (peakJobs(1) * runSeconds * A.pollingShare * 1000) / POLL_INTERVAL_MS,
  reconcilerJobsPerRun: peakJobs(1) * (runSeconds + 60) * A.pastTypicalShare,
  openJobIndexWritesPerSecond: peakJobs(1) * 2,
  providerCreatesPerMinute: peakJobs(1) * A.predictionsPerJob * 60,
  providerOtherRequestsPerMinute: peakJobs(1) * A.readsPerJob * 60,
} as const;

/**
 * The design point: the monthly users at which Replicate's create limit (the first limit not ours) bites. Our own
 * limits are set to hold past it with DESIGN_HEADROOM, so growth meets the provider's limit (raised by asking) first.
 */
export const DESIGN_MAU = REPLICATE_LIMITS.createsPerMinute / DEMAND_PER_USER.providerCreatesPerMinute;
export const DESIGN_HEADROOM = 1.5;

/** A stage or route throttle for this demand per user: the design point's peak with headroom, up to a multiple of 10. */
export function throttleFor(perUserPerSecond: number): { rateLimit: number; burstLimit: number } {
  const rateLimit = Math.ceil((perUserPerSecond * DESIGN_MAU * DESIGN_HEADROOM) / 10) * 10;
  return { rateLimit, burstLimit: 2 * rateLimit };
}
