import fs from 'node:fs';
import path from 'node:path';

/** One email in the dev mailbox (/_dev/mailbox and /_dev/mailbox.json). */
export interface MailboxMessage {
  id: string;
  to: string[];
  from: string;
  replyTo: string[];
  subject: string;
  text: string;
  html: string;
  at: string;
}

/** An email as aws-ses-v2-local's /store lists it. */
interface StoredEmail {
  messageId: string;
  from: string;
  replyTo?: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { html?: string; text?: string };
  at: number;
}

/**
 * Every email the system sent, newest first. The emulator keeps mail in memory, so the mailbox also keeps
 * a copy under the data folder and merges it: mail survives a restart like the rest of the data.
 */
export function mailbox(sesEndpoint: string, dataDir: string) {
  const file = path.join(path.resolve(dataDir), 'mailbox.json');
  const persisted = (): MailboxMessage[] => {
    try {
      return JSON.parse(fs.readFileSync(file, 'utf8')) as MailboxMessage[];
    } catch {
      return [];
    }
  };
  let known = new Map<string, MailboxMessage>(persisted().map((m) => [m.id, m]));

  async function messages(): Promise<MailboxMessage[]> {
    const res = await fetch(`${sesEndpoint}/store`);
    const { emails } = (await res.json()) as { emails: StoredEmail[] };
    let changed = false;
    for (const e of emails) {
      if (known.has(e.messageId)) continue;
      known.set(e.messageId, {
        id: e.messageId,
        to: e.destination.to,
        from: e.from,
        replyTo: e.replyTo ?? [],
        subject: e.subject,
        text: e.body.text ?? '',
        html: e.body.html ?? '',
        at: new Date(e.at * 1000).toISOString(),
      });
      changed = true;
    }
    if (changed) {
      fs.mkdirSync(path.dirname(file), { recursive: true });
      fs.writeFileSync(file, JSON.stringify([...known.values()], null, 1));
    }
    return [...known.values()].sort((a, b) => b.at.localeCompare(a.at));
  }
  return { messages, reset: () => (known = new Map()) };
}
