import type { SendContactRequest } from '../../contract/schemas';
import type { ContactStore } from '../ports/contact';
import type { Mailer } from '../ports/mailer';
import { RateLimited } from './errors';
import { newId } from './ids';

/** Per sender; an address can be many people behind one NAT, so it gets more. */
export const CONTACT_LIMIT_PER_HOUR = 5;
export const CONTACT_LIMIT_PER_IP_PER_HOUR = 20;

export interface SendContactDeps {
  store: ContactStore;
  mailer: Mailer;
  supportEmail: string;
  now: () => Date;
}

/** Sends a contact message to support (reply-to the sender), within the hourly allowances. */
export async function sendContact(deps: SendContactDeps, input: SendContactRequest, sourceIp: string): Promise<void> {
  const now = deps.now();
  const windowStart = Math.floor(now.getTime() / 3_600_000) * 3600;
  const allowed = await deps.store.takeAllowance(
    [
      { key: `email#${input.email.toLowerCase()}`, max: CONTACT_LIMIT_PER_HOUR },
      { key: `ip#${sourceIp || 'unknown'}`, max: CONTACT_LIMIT_PER_IP_PER_HOUR },
    ],
    windowStart,
    3600,
  );
  if (!allowed) throw new RateLimited('Too many messages. Please try again in an hour, or write to us by email.');
  const message = { id: newId(now), ...input, sourceIp, createdAt: now.toISOString() };
  await deps.store.save(message);
  await deps.mailer.send({
    to: [deps.supportEmail],
    replyTo: [input.email],
    subject: `[Contact] ${input.subject}`,
    text: `From: ${input.email}\nReceived: ${message.createdAt}\nReference: ${message.id}\n\n${input.description}\n`,
  });
}
