import { CONTACT_LIMIT_PER_IP, CONTACT_LIMIT_PER_SENDER, ContactMessages } from '../../contract/contact';
import type { SendContactRequest } from '../../contract/schemas';
import type { ContactStore } from '../ports/contact';
import type { Mailer } from '../ports/mailer';
import { RateLimited } from '../domain/errors';
import { newId } from '../domain/ids';

const HOUR_MS = 3_600_000;

export interface SendContactDeps {
  store: ContactStore;
  mailer: Mailer;
  supportEmail: string;
  now: () => Date;
}

/** A subject goes into a mail header: one line, no control characters. */
function oneLine(s: string): string {
  // eslint-disable-next-line no-control-regex
  return s.replace(/[\u0000-\u001f\u007f\u2028\u2029]+/g, ' ').replace(/ {2,}/g, ' ').trim();
}

/**
 * Sends a contact message to support (reply-to the sender), within the hourly allowances per sender
 * address and per client IP (rate-limit.ts). The message is stored before it is mailed, so support can find it even
 * if the mail is lost.
 */
export async function sendContact(deps: SendContactDeps, input: SendContactRequest, clientIp: string): Promise<{ id: string }> {
  const now = deps.now();
  const allowance = await deps.store.takeAllowance(
    [
      { key: `email#${input.email.toLowerCase()}`, limit: CONTACT_LIMIT_PER_SENDER, periodMs: HOUR_MS },
      { key: `ip#${clientIp || 'unknown'}`, limit: CONTACT_LIMIT_PER_IP, periodMs: HOUR_MS },
    ],
    now.getTime(),
  );
  if (!allowance.allowed) {
    const retryAfterSeconds = Math.ceil(allowance.retryAfterMs / 1000);
    throw new RateLimited(ContactMessages.rateLimited(Math.ceil(retryAfterSeconds / 60)), { retryAfterSeconds });
  }
  const subject = oneLine(input.subject);
  const message = { id: newId(now), ...input, subject, sourceIp: clientIp, createdAt: now.toISOString() };
  await deps.store.save(message);
  await deps.mailer.send({
    to: [deps.supportEmail],
    replyTo: [input.email],
    subject: `[Contact] ${subject}`,
    text: `From: ${input.email}\nReceived: ${message.createdAt}\nReference: ${message.id}\n\n${input.description}\n`,
  });
  return { id: message.id };
}
