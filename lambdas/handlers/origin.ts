import { createHash, timingSafeEqual } from 'node:crypto';
import { ORIGIN_HEADER } from '../../contract/origin';

export { ORIGIN_HEADER };

/**
 * The header CloudFront adds to every request it sends to the API (lib/constructs/site.ts), with a secret value
 * (Secrets Manager; the embedded stack's single origin plays CloudFront and adds it too). The HTTP API's own
 * execute-api endpoint is public and cannot be turned off without a custom domain, and an HTTP API takes no WAF or
 * resource policy, so every function checks the header first (http.ts), before any handler code runs: a request that
 * did not come through CloudFront (and its WAF) gets 403, and a viewer address it carries cannot be trusted.
 */

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether `headers` (lower-case keys) carry the origin secret; compared in constant time. */
export function cameThroughCloudFront(headers: Record<string, string | undefined>, secret: string | undefined): boolean {
  const sent = headers[ORIGIN_HEADER];
  // No secret configured is a broken deployment: refuse rather than serve unverified traffic.
  if (!secret || !sent) return false;
  return timingSafeEqual(digest(sent), digest(secret));
}
