/** A browser-like client of the push channel: a WebSocket on the stack's /live with the user's ID token, collecting messages. */
import WebSocket from 'ws';
import type { LiveMessage } from '../../contract/live';
import { LIVE_PATH, LIVE_PROTOCOL } from '../../contract/live';
import { stackUrl, type TestUser } from './users';

export interface LiveClient {
  socket: WebSocket;
  messages: LiveMessage[];
  /** Resolves with the first message (already received or to come) that matches. */
  next(match: (m: LiveMessage) => boolean, timeoutMs?: number): Promise<LiveMessage>;
  close(): Promise<void>;
}

export const liveUrl = (baseUrl = stackUrl()) => `${baseUrl.replace(/^http/, 'ws')}${LIVE_PATH}`;

/** Opens a socket; rejects with the handshake's HTTP status when the server refuses it. */
export function openLive(user: TestUser | undefined, protocols = user ? [LIVE_PROTOCOL, user.idToken] : [LIVE_PROTOCOL]): Promise<LiveClient> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(liveUrl(), protocols);
    const messages: LiveMessage[] = [];
    const waiters: Array<{ match: (m: LiveMessage) => boolean; resolve: (m: LiveMessage) => void }> = [];
    socket.on('message', (data) => {
      const m = JSON.parse(data.toString()) as LiveMessage;
      messages.push(m);
      for (const w of [...waiters]) {
        if (!w.match(m)) continue;
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(m);
      }
    });
    socket.once('unexpected-response', (_req, res) => reject(new Error(`handshake ${res.statusCode}`)));
    socket.once('error', reject);
    socket.once('open', () =>
      resolve({
        socket,
        messages,
        next(match, timeoutMs = 20_000) {
          const seen = messages.find(match);
          if (seen) return Promise.resolve(seen);
          return new Promise((res, rej) => {
            const timer = setTimeout(() => rej(new Error(`no such message; got ${JSON.stringify(messages)}`)), timeoutMs);
            waiters.push({ match, resolve: (m) => (clearTimeout(timer), res(m)) });
          });
        },
        close: () =>
          new Promise<void>((r) => {
            if (socket.readyState === WebSocket.CLOSED) return r();
            socket.once('close', () => r());
            socket.close();
          }),
      }),
    );
  });
}

export async function drain(baseUrl = stackUrl()): Promise<void> {
  const res = await fetch(`${baseUrl}/_dev/background/drain`, { method: 'POST' });
  if (!res.ok) throw new Error(`drain: ${res.status}`);
}
