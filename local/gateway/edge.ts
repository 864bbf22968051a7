/**
 * What CloudFront does to a request for /api/* (and the /live handshake) before the API sees it (lib/constructs/site.ts), played by the embedded
 * stack's single origin: it adds the secret origin header (replacing any a client sent, as CloudFront's custom
 * origin headers do) and sets `CloudFront-Viewer-Address` from the connection itself, so a client-supplied viewer
 * address never reaches a handler.
 */
import type { IncomingMessage } from 'node:http';
import { COGNITO_RATE_RULES, COGNITO_TARGET_PREFIX, EDGE_WINDOW_SECONDS, edgeRuleFor } from '../../contract/edge-limits';
import { ORIGIN_HEADER } from '../../contract/origin';

const VIEWER_ADDRESS = 'cloudfront-viewer-address';

/** The address the connection came from (what CloudFront sees as the viewer's). */
export function viewerIp(req: IncomingMessage): string {
  return (req.socket.remoteAddress ?? '127.0.0.1').replace(/^::ffff:/, '');
}

export function asCloudFront(req: IncomingMessage, originSecret: string): IncomingMessage {
  const ip = viewerIp(req);
  req.headers[ORIGIN_HEADER] = originSecret;
  // "ip:port", IPv6 without brackets, as CloudFront writes it.
  req.headers[VIEWER_ADDRESS] = `${ip}:${req.socket.remotePort ?? 0}`;
  // The raw list (rawHeaders) still holds what the client sent; nothing downstream reads it.
  return req;
}

/**
 * WAF's rate-based rules (contract/edge-limits.ts), as the single origin applies them: per IP and rule, a count over
 * the window, 429 past the limit. WAF's own count is approximate and lags by up to a minute; this one is exact.
 * FW_EDGE_RATE_LIMITS=off turns them off (the test runs, which send thousands of requests from 127.0.0.1).
 */
export function edgeRateLimiter(now: () => number = Date.now) {
  const count = rateCounter(now);
  return function limited(ip: string, path: string): boolean {
    const rule = edgeRuleFor(path);
    return rule ? count(rule.name, ip) > rule.limit : false;
  };
}

/**
 * The user pool's web ACL (contract/edge-limits.ts COGNITO_RATE_RULES), as the single origin's `/_cognito` proxy
 * applies it: per IP and action named by X-Amz-Target, a count over the window. Off with FW_EDGE_RATE_LIMITS=off too.
 */
export function cognitoRateLimiter(now: () => number = Date.now) {
  const count = rateCounter(now);
  return function limited(ip: string, target: string | undefined): boolean {
    const rule = COGNITO_RATE_RULES.find((r) => target === `${COGNITO_TARGET_PREFIX}${r.action}`);
    return rule ? count(rule.name, ip) > rule.limit : false;
  };
}

/** Counts a rule's requests per IP in fixed windows of EDGE_WINDOW_SECONDS; returns the count including this one. */
function rateCounter(now: () => number) {
  const windows = new Map<string, { start: number; count: number }>();
  return (rule: string, ip: string): number => {
    const key = `${rule} ${ip}`;
    const t = now();
    let w = windows.get(key);
    if (!w || t - w.start >= EDGE_WINDOW_SECONDS * 1000) windows.set(key, (w = { start: t, count: 0 }));
    return ++w.count;
  };
}
