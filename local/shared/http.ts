/** The few HTTP chores every part of the embedded stack shares: a capped request body, JSON replies, HTML escaping. */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What readBody resolves to when the body passed its cap. */
export const TOO_LARGE = 'too-large';

/**
 * The whole request body, or TOO_LARGE once it passes `limit` bytes. A body over the cap is still read to its
 * end (and dropped), so the caller can answer (e.g. 413) on a connection that is still usable.
 */
export function readBody(req: IncomingMessage, limit: number): Promise<Buffer | typeof TOO_LARGE> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let tooLarge = false;
    req.on('data', (c: Buffer) => {
      size += c.length;
      if (size > limit) tooLarge = true;
      else chunks.push(c);
    });
    req.on('end', () => resolve(tooLarge ? TOO_LARGE : Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Sends JSON that is already serialized, with its length; `headers` add to (or override) the defaults. */
export function sendJsonText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** Sends `body` as JSON (a string too is serialized, as API Gateway does with a Lambda's string result). */
export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** Text made safe for HTML content and attribute values (every quote included). */
export function escapeHtml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
