import fs from 'node:fs';
import path from 'node:path';

export interface LocalSes {
  endpoint: string;
  stop(): Promise<void>;
}

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

interface StoredEmail {
  messageId: string;
  from: string;
  replyTo?: string[];
  destination: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  body: { html?: string; text?: string };
  at: number;
}

/** aws-ses-v2-local, bound to 127.0.0.1. */
export async function startSes(port: number, log: (l: string) => void): Promise<LocalSes> {
  /* eslint-disable @typescript-eslint/no-require-imports */
  const server = require('aws-ses-v2-local').default as (c: { host: string; port: number }) => Promise<import('node:http').Server>;
  // The emulator answers SESv2 GetAccount (the health probe) from this variable.
  process.env.AWS_SES_ACCOUNT ??= JSON.stringify({
    DedicatedIpAutoWarmupEnabled: false,
    Details: {
      AdditionalContactEmailAddresses: [],
      ContactLanguage: 'EN',
      MailType: 'TRANSACTIONAL',
      ReviewDetails: { CaseId: 'local', Status: 'GRANTED' },
      UseCaseDescription: 'Framewright local stack',
      WebsiteURL: 'http://localhost',
    },
    EnforcementStatus: 'HEALTHY',
    ProductionAccessEnabled: true,
    SendingEnabled: true,
    SendQuota: { Max24HourSend: 50000, MaxSendRate: 14, SentLast24Hours: 0 },
    SuppressionAttributes: { SuppressedReasons: [] },
  });
  const http = await server({ host: '127.0.0.1', port });
  const endpoint = `http://127.0.0.1:${port}`;
  log(`[ses] aws-ses-v2-local on ${endpoint}`);
  return { endpoint, stop: () => new Promise<void>((r) => http.close(() => r())) };
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
