/**
 * Webhook delivery as Replicate does it: Standard Webhooks signing (see signing.ts), deliveries of one prediction
 * in order, a failed delivery retried twice (after 1 s and 5 s) in the background, nothing sent once closing.
 */
import { randomBytes } from 'node:crypto';
import { webhookSender } from '../shared/webhook-delivery';
import { signWebhook } from './signing';
import type { Rec, WebhookEvent } from './types';

export interface WebhookOptions {
  /** The `whsec_...` secret deliveries are signed with. */
  secret: string;
  fetchImpl: typeof fetch;
  /** Aborted when the simulator closes: pending retries and requests stop. */
  closing: AbortSignal;
  /** Copies of each delivery a `[dup]` prediction sends at once (same webhook-id), as a retrying network can. */
  dupCopies: number;
}

/** Returns notify(rec, event): queues the delivery of the prediction as it is now, if its webhook wants the event. */
export function createWebhooks(o: WebhookOptions): (rec: Rec, event: WebhookEvent) => void {
  const send = webhookSender(o.fetchImpl, o.closing);

  /** One delivery: every attempt signed anew (its timestamp is the attempt's), with the same webhook-id. */
  const deliver = (url: string, msgId: string, body: string) =>
    send({
      url,
      body,
      retryDelaysMs: [1_000, 5_000],
      headers: () => {
        const ts = Math.floor(Date.now() / 1000);
        return {
          'content-type': 'application/json',
          'user-agent': 'Replicate-Webhook/1.0 (simulator)',
          'webhook-id': msgId,
          'webhook-timestamp': String(ts),
          'webhook-signature': signWebhook(o.secret, msgId, ts, body),
        };
      },
    });

  return function notify(rec: Rec, event: WebhookEvent): void {
    if (!rec.webhook || rec.markers.has('noWebhook') || o.closing.aborted) return;
    const wanted =
      rec.events.has(event) ||
      // the final delivery carries the output: send it when either is wanted, once
      (event === 'completed' && rec.events.has('output') && rec.p.status === 'succeeded');
    if (!wanted) return;
    const url = rec.webhook;
    const body = JSON.stringify(rec.p);
    const msgId = `msg_${randomBytes(12).toString('hex')}`;
    const copies = rec.markers.has('dup') ? o.dupCopies : 1;
    rec.deliveries = rec.deliveries
      .then(() => Promise.all(Array.from({ length: copies }, () => deliver(url, msgId, body))))
      .then(() => undefined)
      .catch(() => undefined);
  };
}
