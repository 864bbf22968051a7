import { createHmac, timingSafeEqual } from 'node:crypto';
import type { ModelWebhooks } from '../ports/model-provider';
import { toPrediction, type ReplicatePrediction } from './replicate-provider';

const WEBHOOK_TOLERANCE_SECONDS = 5 * 60;

/**
 * Verifies a Replicate (Standard Webhooks) signature: HMAC-SHA256 over `${id}.${timestamp}.${body}` keyed
 * with the base64 part of the `whsec_` secret; the timestamp must be within five minutes; comparisons run
 * in constant time. The header may carry several space-separated `v1,<sig>` entries.
 */
export function verifyWebhookSignature(
  secret: string,
  headers: { id?: string; timestamp?: string; signature?: string },
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const { id, timestamp, signature } = headers;
  if (!id || !timestamp || !signature || !/^\d+$/.test(timestamp)) return false;
  if (Math.abs(nowSeconds - Number(timestamp)) > WEBHOOK_TOLERANCE_SECONDS) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ''), 'base64');
  const expected = createHmac('sha256', key).update(`${id}.${timestamp}.${body}`).digest();
  return signature.split(' ').some((entry) => {
    const [version, sig] = entry.split(',');
    if (version !== 'v1' || !sig) return false;
    const given = Buffer.from(sig, 'base64');
    return given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** Replicate's webhooks: the signature checked with the account's signing secret, the body read as a prediction. */
export function replicateWebhooks(secret: () => Promise<string>): ModelWebhooks {
  return {
    async parse(d) {
      const headers = { id: d.headers['webhook-id'], timestamp: d.headers['webhook-timestamp'], signature: d.headers['webhook-signature'] };
      if (!verifyWebhookSignature(await secret(), headers, d.rawBody)) return undefined;
      let body: Partial<ReplicatePrediction> | undefined;
      try {
        body = JSON.parse(d.rawBody) as Partial<ReplicatePrediction>;
      } catch {
        body = undefined;
      }
      const jobId = d.query.job || undefined;
      const part = /^\d$/.test(d.query.part ?? '') ? Number(d.query.part) : undefined;
      const prediction =
        body && typeof body.id === 'string' && typeof body.status === 'string'
          ? toPrediction({ id: body.id, status: body.status, output: body.output, error: body.error, data_removed: body.data_removed, metrics: body.metrics })
          : undefined;
      return { eventId: headers.id!, ...(jobId ? { jobId } : {}), ...(part !== undefined ? { part } : {}), ...(prediction ? { prediction } : {}) };
    },
  };
}
