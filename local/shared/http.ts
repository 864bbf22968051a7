/**
 * The few HTTP chores every part of the embedded stack shares: a capped request body, request headers, JSON and HTML
 * replies, redirects, HTML escaping.
 */
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

/** A request header's value (the first, when it was sent more than once). */
export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/** Whether the request says its body is JSON (`application/json` or a `+json` type). */
export function isJsonContentType(req: IncomingMessage): boolean {
  return /^application\/(.+\+)?json\b/i.test(header(req, 'content-type') ?? '');
}

/** Sends an HTML page that is never cached or sniffed; `headers` add to (or override) the defaults (a CSP, say). */
export function sendHtml(res: ServerResponse, status: number, html: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(html),
    ...headers,
  });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, 'cache-control': 'no-store', 'content-length': 0 });
  res.end();
}

/** `base` with these query parameters set. */
export function withQuery(base: string, params: Record<string, string>): string {
  const u = new URL(base);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}
