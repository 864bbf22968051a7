/**
 * The job store and the media index in memory, with the DynamoDB adapters' conditions: a job is charged with its
 * ledger row (MemoryCredits), each terminal transition happens once, and a refund comes back with its ledger row in
 * the same change; media items are stored with the job's success. `refundFails` plays an owner account that is gone.
 */
import { RefundNotLanded } from '../../../lambdas/domain/errors';
import { jobCharge, jobPartRefund, jobRefund, withinCap } from '../../../lambdas/domain/money-rules';
import { promptMatches } from '../../../lambdas/domain/prompt-search';
import type { JobStatusReader } from '../../../lambdas/ports/job-status';
import { isTerminal, type ChargeResult, type Job, type JobStatus, type JobStore, type MediaFilter, type MediaIndex, type MediaItem, type SegmentPlan, type Share } from '../../../lambdas/ports/jobs';
import type { Page } from '../../../lambdas/ports/page';
import type { MemoryCredits } from './credits';

const copy = <T>(v: T): T => structuredClone(v);

export class MemoryJobs implements JobStore, JobStatusReader {
  readonly jobs = new Map<string, Job>();
  /** Jobs started per owner and UTC day (the daily cap's counter). */
  readonly daily = new Map<string, number>();
  /** Makes refunds fail as a refund with nowhere to land does (RefundNotLanded; the job stays open). */
  refundFails = false;
  /** The next charge is made, then its answer is lost (a timeout after the commit, as the SDK throws it). */
  loseNextChargeAnswer = false;
  /** The job each owner's request key started (the `STARTED#<key>` guard). */
  readonly startedBy = new Map<string, string>();

  constructor(
    private readonly credits: MemoryCredits,
    private readonly media: MemoryMedia,
    private readonly now: () => Date,
  ) {}

  private open(id: string): Job | undefined {
    const job = this.jobs.get(id);
    return job && !isTerminal(job.status) ? job : undefined;
  }

  async createCharged(job: Job, _expectedBalance?: number, dailyCap?: number, activeCap?: number): Promise<ChargeResult> {
    const day = `${job.owner}#${job.createdAt.slice(0, 10)}`;
    const guard = job.requestKey === undefined ? undefined : `${job.owner}#${job.requestKey}`;
    const started = guard === undefined ? undefined : this.startedBy.get(guard);
    if (started) return { ok: false, started, balance: await this.credits.balance(job.owner) };
    // As the adapter's transaction: the day's count is a condition beside the job's own, decided after the account's rules.
    let capped = false;
    const r = this.credits.change({
      sub: job.owner,
      ...jobCharge(job),
      ref: job.id,
      at: job.createdAt,
      ...(job.countsActive && activeCap !== undefined ? { activeJobs: { add: 1, cap: activeCap } as const } : {}),
      transition: {
        holds: () => {
          if (this.jobs.has(job.id)) return false;
          capped = dailyCap !== undefined && !withinCap(this.daily.get(day) ?? 0, dailyCap);
          return !capped;
        },
        apply: ({ planSpent }) => {
          this.jobs.set(job.id, { ...copy(job), planCost: planSpent });
          if (guard !== undefined) this.startedBy.set(guard, job.id);
          if (dailyCap !== undefined) this.daily.set(day, (this.daily.get(day) ?? 0) + 1);
        },
      },
    });
    if (r.ok) {
      if (this.loseNextChargeAnswer) {
        this.loseNextChargeAnswer = false;
        throw Object.assign(new Error('Request timed out after the charge was written'), { name: 'TimeoutError' });
      }
      return { ok: true, balance: r.balance };
    }
    if (r.why === 'insufficient') return { ok: false, balance: r.balance };
    if (r.why === 'busy') return { ok: false, queueFull: true };
    if (r.why === 'closing' || r.why === 'no-account') return { ok: false, accountClosing: true };
    if (capped) return { ok: false, dailyCapReached: true };
    throw new Error(`Job ${job.id} already exists`);
  }

  async get(id: string) {
    const job = this.jobs.get(id);
    return job && copy(job);
  }

  async read(jobId: string, owner: string) {
    return { job: await this.get(jobId), balance: await this.credits.balance(owner) };
  }

  async markStarted(id: string, providerId: string, status: JobStatus) {
    const job = this.open(id);
    if (!job || job.providerId || job.pastProviderIds?.includes(providerId)) return false;
    Object.assign(job, { providerId, status });
    return true;
  }

  /** As the DynamoDB adapter: only an open job with no prediction yet; the first queued time is kept. */
  async markQueued(id: string, request: SegmentPlan, at: number) {
    const job = this.open(id);
    if (!job || job.providerId) return false;
    Object.assign(job, { queued: copy(request), queuedAt: job.queuedAt ?? at });
    return true;
  }

  async recordOutput(id: string, providerId: string | undefined, urls: readonly string[], at: number) {
    const job = this.open(id);
    if (!job || job.outputUrl) return false;
    if (providerId !== undefined && ((job.providerId && job.providerId !== providerId) || job.pastProviderIds?.includes(providerId))) return false;
    Object.assign(job, { outputUrl: urls[0], outputAt: at, status: 'processing', ...(urls.length > 1 ? { outputUrls: [...urls] } : {}) });
    if (providerId !== undefined) job.providerId ??= providerId;
    return true;
  }

  async markPartStarted(id: string, part: number, providerId: string, status: JobStatus) {
    const job = this.open(id);
    const slot = job?.batch?.[part];
    if (!job || !slot || slot.providerId) return false;
    slot.providerId = providerId;
    job.status = status;
    delete job.queued;
    delete job.queuedAt;
    return true;
  }

  async recordPartOutput(id: string, part: number, providerId: string, url: string) {
    const job = this.open(id);
    const slot = job?.batch?.[part];
    if (!job || !slot || slot.outputUrl || (slot.providerId && slot.providerId !== providerId)) return undefined;
    Object.assign(slot, { outputUrl: url, providerId });
    return copy(job);
  }

  async recordPartFailure(id: string, part: number, providerId: string, reason: string) {
    const job = this.open(id);
    const slot = job?.batch?.[part];
    if (!job || !slot || slot.outputUrl || slot.failed || (slot.providerId && slot.providerId !== providerId)) return undefined;
    Object.assign(slot, { failed: reason, providerId });
    return copy(job);
  }

  async listOpen(limit: number, cursor?: string): Promise<Page<Job>> {
    const open = [...this.jobs.values()].filter((j) => !isTerminal(j.status)).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id.localeCompare(b.id));
    const start = cursor ? Number(cursor) : 0;
    return { items: open.slice(start, start + limit).map(copy), ...(start + limit < open.length ? { nextCursor: String(start + limit) } : {}) };
  }

  async markProgress(id: string, status: JobStatus) {
    const job = this.open(id);
    if (job) job.status = status;
  }

  async startSegment(read: Job, segmentKey: string, at: number) {
    const job = this.open(read.id);
    if (!job || job.outputUrl !== read.outputUrl || job.providerId !== read.providerId || (job.segment ?? 1) !== (read.segment ?? 1)) return false;
    Object.assign(job, {
      segment: (job.segment ?? 1) + 1,
      segmentAt: at,
      segmentKeys: [...(job.segmentKeys ?? []), segmentKey],
      pastProviderIds: [...(job.pastProviderIds ?? []), job.providerId!],
    });
    for (const field of ['outputUrl', 'outputUrls', 'outputAt', 'providerId', 'polledAt'] as const) delete job[field];
    return true;
  }

  async succeed(read: Job, media: readonly MediaItem[], partRefund?: { credits: number; note: string }) {
    if (partRefund) {
      // The failed parts' price back with the success, in one change (as the adapter's transaction).
      if (this.refundFails && this.open(read.id)) throw new RefundNotLanded(read.id, 'no-account');
      const r = this.credits.change({
        sub: read.owner,
        ...jobPartRefund(read, partRefund.credits),
        ref: read.id,
        at: this.now().toISOString(),
        ...(read.countsActive ? { activeJobs: { add: -1 } as const } : {}),
        transition: {
          holds: () => Boolean(this.open(read.id)),
          apply: () => {
            Object.assign(this.jobs.get(read.id)!, { status: 'succeeded', mediaId: media[0]!.id, mediaKey: media[0]!.key, error: partRefund.note });
            for (const m of media) this.media.add(m);
          },
        },
      });
      if (r.ok) return true;
      if (r.why === 'already-done') return false;
      throw new RefundNotLanded(read.id, r.why);
    }
    const job = this.open(read.id);
    if (!job) return false;
    Object.assign(job, { status: 'succeeded', mediaId: media[0]!.id, mediaKey: media[0]!.key });
    for (const m of media) this.media.add(m);
    if (read.countsActive) this.credits.leaveQueue(read.owner);
    return true;
  }

  async failAndRefund(read: Job, status: 'failed' | 'canceled', error: string) {
    return this.refundWith(read, status, error, () => true);
  }

  async cancel(read: Job, refund: boolean, error: string) {
    const ends = () => !this.jobs.get(read.id)!.outputUrl;
    if (refund) return this.refundWith(read, 'canceled', error, ends);
    const job = this.open(read.id);
    if (!job || !ends()) return false;
    Object.assign(job, { status: 'canceled', error, refunded: false });
    if (read.countsActive) this.credits.leaveQueue(read.owner);
    return true;
  }

  async notePredictionCost(read: Pick<Job, 'id' | 'model'>, providerId: string, seconds: number, cents: number) {
    const job = this.jobs.get(read.id);
    if (!job || job.costed?.includes(providerId)) return false;
    Object.assign(job, { costed: [...(job.costed ?? []), providerId], providerSeconds: (job.providerSeconds ?? 0) + seconds, providerCents: (job.providerCents ?? 0) + cents });
    return true;
  }

  async claimPoll(id: string, now: number, intervalMs: number) {
    const job = this.open(id);
    if (!job || (job.polledAt !== undefined && job.polledAt >= now - intervalMs)) return false;
    job.polledAt = now;
    return true;
  }

  /** The job's cost back with its ending, in one change; false when it had already ended. */
  private refundWith(read: Job, status: 'failed' | 'canceled', error: string, also: () => boolean): boolean {
    if (this.refundFails && this.open(read.id)) throw new RefundNotLanded(read.id, 'no-account');
    const r = this.credits.change({
      sub: read.owner,
      // The job as stored: its charge noted the plan credits it spent.
      ...jobRefund(this.jobs.get(read.id) ?? read),
      ref: read.id,
      at: this.now().toISOString(),
      ...(read.countsActive ? { activeJobs: { add: -1 } as const } : {}),
      transition: {
        holds: () => Boolean(this.open(read.id)) && also(),
        apply: () => void Object.assign(this.jobs.get(read.id)!, { status, error, refunded: true }),
      },
    });
    if (r.ok) return true;
    if (r.why === 'already-done') return false;
    throw new RefundNotLanded(read.id, r.why);
  }
}

export class MemoryMedia implements MediaIndex {
  readonly items = new Map<string, MediaItem>();
  readonly shares = new Map<string, Share>();
  /** The collections each item is in, by media id (kept with the item, as the table does: MemoryCollections writes it). */
  readonly memberships = new Map<string, Set<string>>();

  add(m: MediaItem): void {
    if (this.items.has(m.id)) throw new Error(`media ${m.id} exists`);
    this.items.set(m.id, copy(m));
  }

  private of(owner: string, id: string): MediaItem | undefined {
    const item = this.items.get(id);
    return item?.owner === owner ? item : undefined;
  }

  async list(owner: string, limit: number, cursor?: string, filter: MediaFilter = {}): Promise<Page<MediaItem>> {
    const all = [...this.items.values()]
      .filter(
        (m) =>
          m.owner === owner &&
          (!filter.type || m.type === filter.type) &&
          (!filter.favorite || m.favorite) &&
          promptMatches(m.prompt, filter.words ?? []) &&
          (!filter.collection || Boolean(this.memberships.get(m.id)?.has(filter.collection))),
      )
      .sort((a, b) => b.createdAt.localeCompare(a.createdAt));
    const start = cursor ? Number(cursor) : 0;
    return { items: all.slice(start, start + limit).map(copy), ...(start + limit < all.length ? { nextCursor: String(start + limit) } : {}) };
  }

  async get(owner: string, id: string) {
    const item = this.of(owner, id);
    return item && copy(item);
  }

  async remove(owner: string, id: string) {
    const item = this.of(owner, id);
    if (!item) return false;
    if (item.shareToken) this.shares.delete(item.shareToken);
    this.items.delete(id);
    this.memberships.delete(id);
    return true;
  }

  async setFavorite(owner: string, id: string, favorite: boolean) {
    const item = this.of(owner, id);
    if (!item) return false;
    item.favorite = favorite;
    return true;
  }

  async share(owner: string, id: string, share: Share) {
    const item = this.of(owner, id);
    if (!item) return undefined;
    const token = item.shareToken ?? share.token;
    const inForce = { ...(this.shares.get(token) ?? share), showPrompt: share.showPrompt };
    this.shares.set(token, inForce);
    Object.assign(item, { shareToken: token, sharePrompt: share.showPrompt });
    return copy(inForce);
  }

  async unshare(owner: string, id: string) {
    const item = this.of(owner, id);
    if (!item?.shareToken) return false;
    this.shares.delete(item.shareToken);
    delete item.shareToken;
    delete item.sharePrompt;
    return true;
  }

  async shareOf(token: string) {
    const share = this.shares.get(token);
    return share && copy(share);
  }
}
