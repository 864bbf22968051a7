import { CONTACT_LIMIT_PER_IP, CONTACT_LIMIT_PER_SENDER, ContactMessages } from '../../contract/contact';
import type { SendContactRequest } from '../../contract/schemas';
import type { ContactStore } from '../ports/contact';
import type { Mailer } from '../ports/mailer';
import { RateLimited } from './errors';
import { newId } from './ids';

const HOUR_SECONDS = 3600;

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
 * address and per client IP. The message is stored before it is mailed, so support can find it even
 * if the mail is lost.
 */
export async function sendContact(deps: SendContactDeps, input: SendContactRequest, clientIp: string): Promise<{ id: string }> {
  const now = deps.now();
  const windowStart = Math.floor(now.getTime() / (HOUR_SECONDS * 1000)) * HOUR_SECONDS;
  const allowed = await deps.store.takeAllowance(
    [
      { key: `email#${input.email.toLowerCase()}`, max: CONTACT_LIMIT_PER_SENDER },
      { key: `ip#${clientIp || 'unknown'}`, max: CONTACT_LIMIT_PER_IP },
    ],
    windowStart,
    HOUR_SECONDS,
  );
  if (!allowed) throw new RateLimited(ContactMessages.rateLimited);
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
