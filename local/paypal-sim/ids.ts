import crypto from 'node:crypto';

/** The time as PayPal writes it in orders and captures (seconds precision, UTC). */
export const now = () => new Date().toISOString().replace(/\.\d{3}Z$/, 'Z');

const ALNUM = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** PayPal-style ids (orders, captures, events): upper-case letters and digits. */
export function randomAlnum(n: number): string {
  const bytes = crypto.randomBytes(n);
  let s = '';
  for (let i = 0; i < n; i++) s += ALNUM[(bytes[i] ?? 0) % ALNUM.length];
  return s;
}

/** The paypal-debug-id of a response. */
export const debugId = () => crypto.randomBytes(7).toString('hex').slice(0, 13);
