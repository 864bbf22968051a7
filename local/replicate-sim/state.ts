/**
 * The predictions and their lifecycle: starting -> processing at 10% of the run time -> succeeded/failed at 100%
 * (never before the output exists), or canceled/aborted. Media is generated as soon as a prediction is created
 * (images two at a time, videos one at a time); outputs are dropped after outputTtlMs. With a Persistence, every
 * change is written to disk and a restart resumes the unfinished predictions where they were.
 */
import { randomBytes, randomInt } from 'node:crypto';
import { damaged } from './damage';
import { doneLines, midwayLines, startLines } from './logs';
import type { SimModel } from './models';
import { FAIL_ERROR, NSFW_ERROR, type JobOutcome, type PredictionStatus, type Rec, type WebhookEvent } from './types';
import type { Persistence, Restored } from './persist';
import type { CreateRequest } from './validation';

export interface Timings {
  imageMs: number;
  videoMs: number;
  outputTtlMs: number;
  hangMs: number;
  /** Each run takes up to this much longer, drawn uniformly per prediction (real run times vary). */
  jitterMs: number;
}

export interface StateOptions {
  /** Read at each creation, so setTimings applies to the predictions created after it. */
  timings: Timings;
  /** The simulator's URL (known once it listens): a prediction's API URLs start with it. */
  apiBase: () => string;
  generate: (rec: Rec) => Promise<JobOutcome>;
  notify: (rec: Rec, event: WebhookEvent) => void;
  persist?: Persistence;
}

/** A tiny counting semaphore. */
class Limiter {
  private running = 0;
  private queue: (() => void)[] = [];
  constructor(private readonly max: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.running >= this.max) await new Promise<void>((resolve) => this.queue.push(resolve));
    this.running++;
    try {
      return await fn();
    } finally {
      this.running--;
      this.queue.shift()?.();
    }
  }
}

const BASE32 = 'abcdefghijklmnopqrstuvwxyz234567';
function predictionId(): string {
  return Array.from(randomBytes(26), (b) => BASE32[b & 31]).join('');
}

const terminal = (s: PredictionStatus) => s === 'succeeded' || s === 'failed' || s === 'canceled' || s === 'aborted';

export type State = ReturnType<typeof createState>;

export function createState(o: StateOptions) {
  const { timings, notify } = o;
  const save = (rec: Rec) => o.persist?.save(rec);
  const recs = new Map<string, Rec>();
  const imageLimiter = new Limiter(2);
  const videoLimiter = new Limiter(1);

  // ---------- outputs and their expiry ----------
  const expired = (rec: Rec) => rec.completedMs !== undefined && Date.now() >= rec.completedMs + timings.outputTtlMs;
  function sweep(): void {
    for (const rec of recs.values()) {
      if (rec.files.size && expired(rec)) {
        rec.files.clear();
        rec.p.data_removed = true;
        o.persist?.dropFiles(rec.p.id);
        save(rec);
      }
    }
  }
  const sweeper = setInterval(sweep, 5_000);
  sweeper.unref();

  // ---------- lifecycle ----------
  function later(rec: Rec, ms: number, fn: () => void): void {
    const t = setTimeout(() => {
      rec.timers.delete(t);
      fn();
    }, ms);
    rec.timers.add(t);
  }

  const log = (rec: Rec, lines: string[]) => {
    for (const line of lines) rec.p.logs += `${line}\n`;
  };

  function wake(rec: Rec): void {
    for (const w of rec.waiters) w();
    rec.waiters.clear();
  }

  function startProcessing(rec: Rec): void {
    if (rec.p.status !== 'starting') return;
    rec.startedMs = Date.now();
    rec.p.status = 'processing';
    rec.p.started_at = new Date(rec.startedMs).toISOString();
    log(rec, startLines(rec));
    save(rec);
    notify(rec, 'logs');
  }

  function midway(rec: Rec): void {
    if (rec.p.status !== 'processing') return;
    log(rec, midwayLines(rec));
    notify(rec, 'logs');
  }

  function finish(rec: Rec, status: 'succeeded' | 'failed' | 'aborted', error: string | null): void {
    rec.completedMs = Date.now();
    rec.p.status = status;
    rec.p.error = error;
    // An aborted prediction never started.
    if (status !== 'aborted') rec.p.started_at ??= new Date(rec.completedMs).toISOString();
    rec.p.completed_at = new Date(rec.completedMs).toISOString();
    rec.p.metrics = {
      predict_time: Math.round((rec.completedMs - (rec.startedMs ?? rec.completedMs)) / 10) / 100,
      total_time: Math.round((rec.completedMs - rec.createdMs) / 10) / 100,
    };
    for (const t of rec.timers) clearTimeout(t);
    rec.timers.clear();
    // [lost]: the output is deleted before anyone is told (its URLs answer 404; data_removed stays false).
    if (rec.markers.has('lost')) rec.files = new Map();
    if (rec.files.size) o.persist?.saveFiles(rec);
    save(rec);
    notify(rec, 'completed');
    wake(rec);
  }

  /** Ends the prediction once its time is up and (for a success) its media exists. */
  function maybeFinish(rec: Rec): void {
    if (terminal(rec.p.status) || !rec.timeUp) return;
    if (rec.markers.has('abort')) {
      rec.abort.abort();
      return finish(rec, 'aborted', null);
    }
    if (rec.p.status === 'starting') startProcessing(rec);
    if (rec.markers.has('nsfw')) {
      log(rec, ['Potential NSFW content detected in output']);
      return finish(rec, 'failed', NSFW_ERROR);
    }
    if (rec.markers.has('fail')) {
      log(rec, ['Traceback (most recent call last):', 'RuntimeError: simulated model error']);
      return finish(rec, 'failed', FAIL_ERROR);
    }
    const outcome = rec.outcome;
    if (!outcome) return; // still generating: finish when the job settles
    if (!outcome.ok) {
      log(rec, [outcome.error]);
      return finish(rec, 'failed', outcome.error);
    }
    log(rec, [...doneLines(rec), outcome.note]);
    rec.files = damaged(outcome.files, rec.markers);
    rec.p.output = outcome.output;
    finish(rec, 'succeeded', null);
  }

  /** Starts a checked request (see validation.ts's parseCreate) as a new prediction. */
  function create(model: SimModel, req: CreateRequest, versionField: string): Rec {
    const { input, markers } = req;
    const seed = typeof input.seed === 'number' ? input.seed : randomInt(65_536);
    const id = predictionId();
    const now = Date.now();
    const api = `${o.apiBase()}/v1/predictions/${id}`;
    const rec = fresh({
      p: {
        id,
        model: model.id,
        version: versionField,
        input: req.raw,
        logs: '',
        output: null,
        data_removed: false,
        error: null,
        status: 'starting',
        source: 'api',
        created_at: new Date(now).toISOString(),
        started_at: null,
        completed_at: null,
        urls: { get: api, cancel: `${api}/cancel`, web: `https://replicate.com/p/${id}` },
        metrics: {},
        ...(req.webhook ? { webhook: req.webhook, webhook_events_filter: [...req.events] } : {}),
      },
      model,
      input,
      seed,
      createdMs: now,
      // [early] runs within a second, so its webhooks all come before the (held) create call answers.
      totalMs: markers.has('early') ? Math.min(1_000, model.kind === 'image' ? timings.imageMs : timings.videoMs) : (model.kind === 'image' ? timings.imageMs : timings.videoMs) * (markers.has('slow') ? 3 : 1) + Math.floor(Math.random() * timings.jitterMs),
      markers,
      ...(req.webhook ? { webhook: req.webhook } : {}),
      events: req.events,
      files: new Map(),
    });
    recs.set(id, rec);
    save(rec);
    run(rec);
    notify(rec, 'start');
    return rec;
  }

  function fresh(r: Restored): Rec {
    return { ...r, timers: new Set(), abort: new AbortController(), timeUp: false, waiters: new Set(), deliveries: Promise.resolve() };
  }

  /** Generates the output and schedules the lifecycle from where the prediction is (a restart resumes it). */
  function run(rec: Rec): void {
    const { markers, model } = rec;
    if (!markers.has('fail') && !markers.has('nsfw') && !markers.has('abort')) {
      const limiter = model.kind === 'image' ? imageLimiter : videoLimiter;
      rec.job = limiter
        .run(async () => (rec.abort.signal.aborted ? ({ ok: false, error: 'canceled' } as const) : o.generate(rec)))
        .then((outcome) => {
          rec.outcome = outcome;
          maybeFinish(rec);
        });
    }
    // [queued]: never taken off the queue; only a cancel ends it.
    if (markers.has('queued')) return;
    const elapsed = Date.now() - rec.createdMs;
    const at = (share: number) => Math.max(0, Math.round(rec.totalMs * share) - elapsed);
    if (rec.p.status === 'starting') later(rec, at(0.1), () => startProcessing(rec));
    later(rec, at(0.5), () => midway(rec));
    // [stuck]: its time never comes.
    if (!markers.has('stuck')) {
      later(rec, at(1), () => {
        rec.timeUp = true;
        maybeFinish(rec);
      });
    }
  }

  function cancel(rec: Rec): void {
    if (terminal(rec.p.status)) return;
    rec.abort.abort();
    for (const t of rec.timers) clearTimeout(t);
    rec.timers.clear();
    rec.completedMs = Date.now();
    rec.p.status = 'canceled';
    rec.p.completed_at = new Date(rec.completedMs).toISOString();
    // A running prediction is billed for the time it ran (predict_time); one cancelled before it started, for nothing.
    rec.p.metrics = {
      ...(rec.startedMs !== undefined ? { predict_time: Math.round((rec.completedMs - rec.startedMs) / 10) / 100 } : {}),
      total_time: Math.round((rec.completedMs - rec.createdMs) / 10) / 100,
    };
    save(rec);
    notify(rec, 'completed');
    wake(rec);
  }

  /**
   * A `Cancel-After` deadline, counted from creation: a prediction still waiting for a machine ends `aborted` (it
   * never ran, nothing billed), one that is running is canceled; one that ended first is left as it is.
   */
  function deadline(rec: Rec, ms: number): void {
    later(rec, Math.max(0, rec.createdMs + ms - Date.now()), () => {
      if (terminal(rec.p.status)) return;
      if (rec.p.status !== 'starting') return cancel(rec);
      rec.abort.abort();
      finish(rec, 'aborted', null);
    });
  }

  /** Resolves when the prediction is terminal or after `seconds`, whichever comes first. */
  async function waitFor(rec: Rec, seconds: number): Promise<void> {
    if (terminal(rec.p.status)) return;
    await new Promise<void>((resolve) => {
      const t = setTimeout(done, seconds * 1000);
      function done() {
        clearTimeout(t);
        rec.waiters.delete(done);
        resolve();
      }
      rec.waiters.add(done);
    });
  }

  return {
    /** Brings every saved prediction back (once the simulator listens); the unfinished ones carry on. */
    resume(): void {
      for (const restored of o.persist?.load() ?? []) {
        if (recs.has(restored.p.id)) continue;
        const rec = fresh(restored);
        recs.set(rec.p.id, rec);
        if (!terminal(rec.p.status)) run(rec);
      }
    },
    create,
    cancel,
    deadline,
    hangMs: () => timings.hangMs,
    apiBase: o.apiBase,
    waitFor,
    get: (id: string) => recs.get(id),
    /** Like get, but first drops the outputs whose time is up. */
    find(id: string): Rec | undefined {
      const rec = recs.get(id);
      if (rec && expired(rec)) sweep();
      return rec;
    },
    /** Every prediction, oldest first. */
    all: () => [...recs.values()],
    /** Stops every timer and job, then waits for the jobs and webhook deliveries in flight. */
    async shutdown(): Promise<void> {
      clearInterval(sweeper);
      const jobs: Promise<void>[] = [];
      for (const rec of recs.values()) {
        for (const t of rec.timers) clearTimeout(t);
        rec.timers.clear();
        rec.abort.abort();
        wake(rec);
        if (rec.job) jobs.push(rec.job);
        jobs.push(rec.deliveries);
      }
      await Promise.allSettled(jobs);
    },
  };
}
