import { createHmac } from 'node:crypto';

/** One account per address: sign-up, sign-in and every stored mark compare addresses trimmed and lower-cased. */
export const normaliseEmail = (email: string) => email.trim().toLowerCase();

/** Gmail ignores dots in the local part, and googlemail.com is the same mailbox as gmail.com. */
const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/**
 * The mailbox an address delivers to, as the welcome mark must see it: `x+1@` and `x+tag@` reach `x@` at every
 * provider that supports plus tags (and a tag is never needed to deliver), so the tag goes everywhere; dots go only at
 * Gmail, where `x.y@` and `xy@` are one mailbox (elsewhere a dot can name another person). The account keeps the
 * address as typed (normaliseEmail); only the mark uses this.
 */
export function mailboxOf(email: string): string {
  const address = normaliseEmail(email);
  const at = address.lastIndexOf('@');
  if (at <= 0) return address;
  let local = address.slice(0, at);
  let domain = address.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  if (GMAIL_DOMAINS.has(domain)) {
    local = local.replaceAll('.', '');
    domain = 'gmail.com';
  }
  return `${local}@${domain}`;
}

const hmac = (key: string, value: string) => createHmac('sha256', key).update(value).digest('base64url');

/**
 * The name a mailbox goes by where it must outlive its account (the welcome-credits mark): HMAC-SHA256 of
 * mailboxOf(address) under a server secret (the welcome hash key, read from Secrets Manager), base64url. HMAC, not a plain SHA-256: addresses are
 * guessable, so an unkeyed hash could be reversed by hashing a list of addresses; without the key the mark names no one.
 */
export function emailHash(email: string, key: string): string {
  return hmac(key, mailboxOf(email));
}

/**
 * The mark an address got before marks named the mailbox (the address only trimmed and lower-cased), or undefined
 * when it is the same as emailHash's. Marks are never deleted, so this is checked for as long as they are kept.
 */
export function legacyEmailHash(email: string, key: string): string | undefined {
  const typed = normaliseEmail(email);
  return typed === mailboxOf(email) ? undefined : hmac(key, typed);
}
