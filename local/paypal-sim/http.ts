/** How the simulator answers: PayPal's JSON (with paypal-debug-id), the buyer pages' HTML, redirects. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { sendJsonText } from '../shared/http';
import { debugId } from './ids';
import { PAGE_CSP } from './pages';
import { isRecord } from './types';

/** Request bodies over 1 MB are refused with 413. */
export const MAX_BODY = 1_000_000;

export function header(req: IncomingMessage, name: string): string | undefined {
  const v = req.headers[name];
  return Array.isArray(v) ? v[0] : v;
}

export function isJsonContentType(req: IncomingMessage): boolean {
  return /^application\/(.+\+)?json\b/i.test(header(req, 'content-type') ?? '');
}

/** JSON as PayPal sends it; a string `body` is JSON already (a stored response or event, sent byte for byte). */
export function sendJson(res: ServerResponse, status: number, body: unknown, debug = debugId()): void {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  sendJsonText(res, status, text, {
    'paypal-debug-id': isRecord(body) && typeof body.debug_id === 'string' ? body.debug_id : debug,
    'cache-control': 'no-store',
  });
}

export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-security-policy': PAGE_CSP,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'cache-control': 'no-store',
    'content-length': Buffer.byteLength(html),
  });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(302, { location, 'cache-control': 'no-store', 'content-length': 0 });
  res.end();
}

export function withQuery(base: string, params: Record<string, string>): string {
  const u = new URL(base);
  for (const [k, v] of Object.entries(params)) u.searchParams.set(k, v);
  return u.toString();
}
