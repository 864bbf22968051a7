/**
 * Safe retries of the calls that charge or order: `POST /api/generate-*` and `POST /api/create-paypal-payment` take
 * an `Idempotency-Key` header (the IETF httpapi draft's, as Stripe uses it). The same key from the same user with the
 * same body within IDEMPOTENCY_TTL_SECONDS answers what the first call answered, and charges once; another body is a
 * 422; a repeat while the first is still running is a 409 the client may retry.
 */
import * as z from 'zod';

export const IDEMPOTENCY_KEY_HEADER = 'Idempotency-Key';
/** Set on an answer repeated from a key's first call. */
export const IDEMPOTENT_REPLAYED_HEADER = 'Idempotent-Replayed';
export const IDEMPOTENCY_TTL_SECONDS = 24 * 60 * 60;

/** A client's key: 1-255 visible ASCII characters (a UUID from the web app). */
export const IdempotencyKey = z
  .string()
  .min(1)
  .max(255)
  .regex(/^[\x21-\x7e]+$/);
