import { createHmac } from 'node:crypto';

/** One account per address: sign-up, sign-in and every stored mark compare addresses trimmed and lower-cased. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/**
 * The name an address goes by where it must outlive its account (the welcome-credits mark): HMAC-SHA256 of the
 * normalised address under a server secret (the welcome hash key, read from Secrets Manager), base64url. HMAC, not a plain SHA-256: addresses are
 * guessable, so an unkeyed hash could be reversed by hashing a list of addresses; without the key the mark names no one.
 */
export function emailHash(email: string, key: string): string {
  return createHmac('sha256', key).update(normaliseEmail(email)).digest('base64url');
}
