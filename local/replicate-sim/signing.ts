/**
 * Webhook signing exactly as Replicate does it (the Standard Webhooks scheme):
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "${webhook-id}.${webhook-timestamp}.${body}">`,
 * keyed with the base64-decoded part of the secret after `whsec_`.
 *
 * The simulator signs with this; tests may use it to forge deliveries. The product verifies with its own code.
 */
import { createHmac } from 'node:crypto';

/** The raw HMAC key of a `whsec_<base64>` secret. Throws when the secret is not of that form. */
export function webhookSecretKey(secret: string): Buffer {
  if (!secret.startsWith('whsec_')) throw new Error('webhookSecret must look like whsec_<base64 key>');
  const b64 = secret.slice('whsec_'.length);
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(b64)) throw new Error('webhookSecret: the part after whsec_ is not base64');
  const key = Buffer.from(b64, 'base64');
  if (key.length === 0) throw new Error('webhookSecret: empty key');
  return key;
}

/** `v1,<base64 signature>` for one delivery. `timestamp` is unix seconds, as sent in `webhook-timestamp`. */
export function signWebhook(secret: string, id: string, timestamp: number | string, body: string): string {
  const mac = createHmac('sha256', webhookSecretKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64');
  return `v1,${mac}`;
}
