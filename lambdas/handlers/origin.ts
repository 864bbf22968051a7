import { createHash, timingSafeEqual } from 'node:crypto';
import { ORIGIN_HEADER } from '../../contract/origin';
import { originSecretValues } from '../wiring/deps';

export { ORIGIN_HEADER };

/**
 * The header CloudFront adds to every request it sends to the API (lib/constructs/site.ts), with a secret value
 * (Secrets Manager, read at run time; the embedded stack's single origin plays CloudFront and adds it too). The HTTP
 * API's own execute-api endpoint is public and cannot be turned off without a custom domain, and an HTTP API takes no
 * WAF or resource policy, so every function checks the header first (http.ts), before any handler code runs: a request
 * that did not come through CloudFront (and its WAF) gets 403, and a viewer address it carries cannot be trusted.
 * During a rotation of the secret both the old and the new value pass (adapters/secrets.ts, originSecret).
 */

const digest = (s: string) => createHash('sha256').update(s).digest();

/** Whether `headers` (lower-case keys) carry a value of the origin secret accepted now; compared in constant time. */
export async function cameThroughCloudFront(headers: Record<string, string | undefined>): Promise<boolean> {
  const sent = headers[ORIGIN_HEADER];
  if (!sent) return false;
  const theirs = digest(sent);
  // An empty or unreadable secret is a broken deployment: refuse rather than serve unverified traffic.
  return originSecretValues().accepts((value) => value !== '' && timingSafeEqual(theirs, digest(value)));
}
