import type { MediaKind } from '../../contract/media-kinds';
import type { Page } from './page';

export type JobKind = MediaKind;
export type JobStatus = 'pending' | 'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled';
const TERMINAL: readonly JobStatus[] = ['succeeded', 'failed', 'canceled'];
export const isTerminal = (s: JobStatus) => TERMINAL.includes(s);

export interface Job {
  id: string;
  owner: string;
  kind: JobKind;
  /** Replicate model identifier (owner/name). */
  model: string;
  prompt: string;
  /** Options shown with the result (duration, quality, start image...). */
  options: Record<string, string | number | boolean>;
  cost: number;
  status: JobStatus;
  providerId?: string;
  error?: string;
  mediaId?: string;
  /** The result's key in the media bucket, stored with mediaId at success (a status answer presigns it, no read). */
  mediaKey?: string;
  refunded?: boolean;
  createdAt: string;
  /** When the provider was last asked for this job's status (epoch ms). */
  polledAt?: number;
  /** What the job's ended predictions cost us: the seconds they ran (`metrics.predict_time`) and Replicate's charge in US cents. */
  providerSeconds?: number;
  providerCents?: number;
  /** The predictions whose cost is counted in providerSeconds and providerCents (each once). */
  costed?: string[];
  /** The provider's output URL once it succeeded: the job stays open until the copy to S3 (save-job-output) ends it. */
  outputUrl?: string;
  /** Every output URL when the prediction made several files (several images); outputUrl is the first. */
  outputUrls?: string[];
  /** When outputUrl was recorded (epoch ms): a save that is overdue is retried by the reconciler. */
  outputAt?: number;
  /**
   * The job counts in its owner's running jobs (the account's activeJobs, the queue limit): the write that ends it
   * takes it off again. Jobs from before the queue do not count, so ending them changes no counter.
   */
  countsActive?: boolean;
  /**
   * The Idempotency-Key of the call that started it: one job per owner and key for a day (the charge's transaction
   * writes a guard item, `STARTED#<key>`), so a retry of a call whose answer was lost after the charge finds this job
   * instead of charging a second one.
   */
  requestKey?: string;
  /** Of its cost, the plan credits its charge spent (plan credits go first): a refund gives them back as plan credits. */
  planCost?: number;
  /**
   * A clip made of several predictions (a 10 s Wan clip): the segments after the first, each started from the one
   * before's last frame (its `image` added then). The job's providerId and outputUrl are its current segment's.
   */
  continuation?: SegmentPlan[];
  /** The segment running now, from 1 (absent: 1). */
  segment?: number;
  /** When the current segment was started (epoch ms; absent for the first: createdAt). */
  segmentAt?: number;
  /** The finished earlier segments, in the media bucket, to be joined with the last. */
  segmentKeys?: string[];
  /** The earlier segments' prediction ids: a late delivery of theirs changes nothing. */
  pastProviderIds?: string[];
  /**
   * Charged and waiting in our own queue for the provider (it was rate limiting us or too slow to answer): the
   * prediction to ask for, submitted by the reconciler as capacity frees (steps/submit-or-queue.ts). Removed when a
   * prediction is recorded.
   */
  queued?: SegmentPlan;
  /** When the job entered the queue (epoch ms): past the queue's maximum wait it is failed and refunded. */
  queuedAt?: number;
  /**
   * A batch of images (the registry's plan has `seeds`): one prediction per image, run side by side, each with its own
   * seed; a part's prediction id and output are recorded on it as they come (the job's providerId stays unset). When
   * every part has its output, outputUrl and outputUrls (in part order) are recorded and the job is saved as one; any
   * part that fails ends the whole job with its whole refund.
   */
  batch?: BatchPart[];
}

/** The predictions of a job still to hear from: its one prediction, or a batch's parts that have not ended yet. */
export const runningPredictions = (job: Job): string[] =>
  job.batch ? job.batch.flatMap((b) => (b.providerId && !b.outputUrl && !b.failed ? [b.providerId] : [])) : job.providerId ? [job.providerId] : [];

export interface BatchPart {
  seed: number;
  providerId?: string;
  outputUrl?: string;
  /** Why this part's prediction made no image (it failed, was aborted or lost its output): its price comes back. */
  failed?: string;
}

/** One later segment's prediction: its model and its input, without the start image. */
export interface SegmentPlan {
  model: string;
  version?: string;
  input: Record<string, unknown>;
}

export interface MediaItem {
  id: string;
  owner: string;
  type: JobKind;
  key: string;
  prompt: string;
  model: string;
  options: Record<string, string | number | boolean>;
  createdAt: string;
  jobId?: string;
  /** Starred by the owner. */
  favorite?: boolean;
  /** While shared: the share link's token, and whether its page shows the prompt. */
  shareToken?: string;
  sharePrompt?: boolean;
  /** Videos: the poster frame's key and the length, when saving made them. */
  posterKey?: string;
  durationSeconds?: number;
  width?: number;
  height?: number;
  /** What the job that made it cost (a several-image job's cost covers all its images); absent on older items. */
  credits?: number;
}

/** Which results a list holds: one kind, one model family (a registry slug), only the starred ones. */
export interface MediaFilter {
  type?: JobKind;
  model?: string;
  favorite?: boolean;
  /** Words every listed prompt holds (domain/prompt-search). */
  words?: readonly string[];
  /** Only the items in this collection (ports/collections). */
  collection?: string;
}

/** A share link: its token names the owner's media item. */
export interface Share {
  token: string;
  owner: string;
  mediaId: string;
  showPrompt: boolean;
  createdAt: string;
}

/** ok: charged; not ok: credits were short (the balance after the attempt) or the daily cap was reached. */
export type ChargeResult =
  | { ok: true; balance: number }
  | { ok: false; balance: number }
  | { ok: false; dailyCapReached: true }
  /** The owner already has the most jobs running that the queue allows. */
  | { ok: false; queueFull: true }
  /** The owner's account is being deleted (or is gone): nothing was charged or stored. */
  | { ok: false; accountClosing: true }
  /** The job's request (its requestKey) already started this job: nothing was charged again. */
  | { ok: false; started: string; balance: number };

export interface JobStore {
  /**
   * Charges the job's cost and stores the job in one transaction; fails without a change when credits are short.
   * `expectedBalance`: the owner's balance just read, if known (saves reading it again). `dailyCap`: at most this
   * many jobs per owner and UTC day, counted in the same transaction (a refunded job still counts).
   */
  createCharged(job: Job, expectedBalance?: number, dailyCap?: number, activeCap?: number): Promise<ChargeResult>;
  get(id: string): Promise<Job | undefined>;
  /**
   * Records the provider's id and a non-terminal status, unless the job already has a provider id (a webhook that
   * came before the create call returned recorded it) or has ended (false then).
   */
  markStarted(id: string, providerId: string, status: JobStatus): Promise<boolean>;
  /** Puts an open job without a prediction in our own queue with the prediction to ask for (false when it ended or has one). */
  markQueued(id: string, request: SegmentPlan, at: number): Promise<boolean>;
  /**
   * Records the provider's output URL on an open job that has none yet (and its provider id, if missing; a batch's
   * parts carry theirs: undefined), once: the table's stream then runs the copy. False when the job ended or already
   * had an output.
   */
  recordOutput(id: string, providerId: string | undefined, urls: readonly string[], at: number): Promise<boolean>;
  /** Records a batch part's prediction id (once) and the job's status; false when the job ended or the part has one. */
  markPartStarted(id: string, part: number, providerId: string, status: JobStatus): Promise<boolean>;
  /**
   * Records a batch part's output URL (and its prediction id, if missing) on an open job, once. The job as it is
   * after, or undefined when the job ended, or the part already had an output or another prediction.
   */
  recordPartOutput(id: string, part: number, providerId: string, url: string): Promise<Job | undefined>;
  /**
   * Records why a batch part made no image (and its prediction id, if missing) on an open job, once: the part has no
   * output and no failure yet, and no other prediction. The job as it is after, or undefined when nothing was recorded.
   */
  recordPartFailure(id: string, part: number, providerId: string, reason: string): Promise<Job | undefined>;
  /** The open jobs (oldest first), from a sparse index that holds exactly the jobs not yet ended: no scan. */
  listOpen(limit: number, cursor?: string): Promise<Page<Job>>;
  /** Moves a job to a non-terminal status (no change once terminal). */
  markProgress(id: string, status: JobStatus): Promise<void>;
  /**
   * Moves a clip whose current segment's output is recorded to its next segment, once: the condition is the
   * segment index, the output and the prediction as read, so a repeated save or a late delivery cannot start a
   * segment twice. Clears the output and the prediction id (the next prediction's come later), remembers the old
   * prediction id and the saved segment's key. False when the job moved on or ended meanwhile.
   */
  startSegment(job: Job, segmentKey: string, at: number): Promise<boolean>;
  /**
   * Succeeds the job and stores its media items (one per output), once. Returns false if the job was already terminal.
   * With `partRefund` (a batch some of whose parts failed), the failed parts' price comes back in the same transaction
   * (one refund row) and `note` is the job's message; a refund that cannot land throws RefundNotLanded.
   */
  succeed(job: Job, media: readonly MediaItem[], partRefund?: { credits: number; note: string }): Promise<boolean>;
  /**
   * Fails or cancels the job and refunds its cost, once, whatever the owner's balance. Returns false if the job was
   * already terminal; throws RefundNotLanded when the refund could not be made (the job stays open, for a retry).
   */
  failAndRefund(job: Job, status: 'failed' | 'canceled', error: string): Promise<boolean>;
  /**
   * Cancels an open job whose output is not recorded yet, once: with `refund`, its cost comes back in the same
   * transaction. False when the job already ended or its output was recorded (it is being saved: it succeeded).
   */
  cancel(job: Job, refund: boolean, error: string): Promise<boolean>;
  /** Claims the right to ask the provider now: true for one caller per interval. */
  claimPoll(id: string, now: number, intervalMs: number): Promise<boolean>;
  /**
   * Adds an ended prediction's run time and cost to the job's, once per prediction (whether or not the job is still
   * open: a late webhook of a refunded job still cost us). False when it was counted already.
   */
  notePredictionCost(job: Pick<Job, 'id' | 'model'>, providerId: string, seconds: number, cents: number): Promise<boolean>;
}

export interface MediaIndex {
  /** Newest first; with a filter, only what matches, still `limit` to a page (the filter does not shorten pages). */
  list(owner: string, limit: number, cursor?: string, filter?: MediaFilter): Promise<Page<MediaItem>>;
  get(owner: string, id: string): Promise<MediaItem | undefined>;
  /** Removes the item and its share link, if it has one. False when there was no such item. */
  remove(owner: string, id: string): Promise<boolean>;
  /** Stars or unstars an item; false when there is no such item. */
  setFavorite(owner: string, id: string, favorite: boolean): Promise<boolean>;
  /**
   * Shares an item: stores the share under its token and the token on the item, in one transaction. An item already
   * shared keeps its token (only showPrompt changes). Returns the share in force, or undefined when there is no such item.
   */
  share(owner: string, id: string, share: Share): Promise<Share | undefined>;
  /** Revokes the item's share link; false when the item is not shared (or does not exist). */
  unshare(owner: string, id: string): Promise<boolean>;
  /** A share link by its token. */
  shareOf(token: string): Promise<Share | undefined>;
}
