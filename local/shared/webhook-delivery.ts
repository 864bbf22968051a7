/**
 * Webhook delivery as both providers make it: POST the body; after a failed attempt (no connection, no answer
 * within the timeout, or a status other than 2xx) try again after each of the retry delays, until one attempt
 * succeeds, the delays run out, or the simulator closes. Each simulator signs its own way (`headers`, made per
 * attempt: Replicate signs each attempt's timestamp, PayPal one transmission).
 */
import { setMaxListeners } from 'node:events';

export interface Delivery {
  url: string;
  body: string;
  headers: () => Record<string, string>;
  /** Waits before the attempts after a failed one: their count is the number of retries. */
  retryDelaysMs: readonly number[];
  /** Waited before the first attempt (deliveries can overtake each other). */
  firstDelayMs?: number;
  /** True while the provider is away: the attempt fails without being sent. */
  held?: () => boolean;
  /** Told before each retry. */
  onRetry?: (failure: string, delayMs: number) => void;
}

/** How a delivery ended: sent, given up after its last retry, or cut short because the simulator closed. */
export type DeliveryOutcome = { delivered: true } | { delivered: false; failure: string; attempts: number } | 'closed';

const TIMEOUT_MS = 10_000;

export function webhookSender(fetchImpl: typeof fetch, closing: AbortSignal) {
  setMaxListeners(0, closing); // one listener per delivery in flight or waiting

  /** Waits ms, or less if the simulator closes meanwhile. */
  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(t);
        closing.removeEventListener('abort', done);
        resolve();
      };
      const t = setTimeout(done, ms);
      t.unref();
      closing.addEventListener('abort', done, { once: true });
    });

  async function attempt(d: Delivery): Promise<string | undefined> {
    if (d.held?.()) return 'the provider is in an outage';
    try {
      const res = await fetchImpl(d.url, {
        method: 'POST',
        headers: d.headers(),
        body: d.body,
        signal: AbortSignal.any([closing, AbortSignal.timeout(TIMEOUT_MS)]),
      });
      await res.arrayBuffer().catch(() => undefined);
      return res.ok ? undefined : `HTTP ${res.status}`;
    } catch (err) {
      return err instanceof Error ? err.message : String(err);
    }
  }

  return async function deliver(d: Delivery): Promise<DeliveryOutcome> {
    if (d.firstDelayMs) await sleep(d.firstDelayMs);
    for (let n = 0; ; n++) {
      if (closing.aborted) return 'closed';
      const failure = await attempt(d);
      if (closing.aborted) return 'closed';
      if (failure === undefined) return { delivered: true };
      const delay = d.retryDelaysMs[n];
      if (delay === undefined) return { delivered: false, failure, attempts: n + 1 };
      d.onRetry?.(failure, delay);
      await sleep(delay);
    }
  };
}
