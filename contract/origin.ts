/**
 * The header CloudFront adds to every request it sends to the API, with a secret value (lib/constructs/origin-secret.ts);
 * every API function refuses a request without it (lambdas/handlers/origin.ts), and the embedded stack's single origin
 * adds it as CloudFront does (local/gateway/edge.ts).
 */
export const ORIGIN_HEADER = 'x-origin-verify';

/**
 * The origin secret (`framewright/<stage>/origin-verify`) holds JSON: `header`, the value CloudFront sends, and, from
 * its first rotation on, `since`, when that value was made (ISO 8601). The API reads it at run time and keeps it this
 * long (seconds); a rotation waits as long after making the new value before CloudFront sends it, so every function
 * instance knows it by then.
 */
export const ORIGIN_SECRET_CACHE_SECONDS = 60;
/**
 * After a rotation the value it replaced (AWSPREVIOUS) is still accepted for this long (seconds) from the new value's
 * `since`: CloudFront's edges take minutes to take up a changed origin header, and keep sending the old one until then.
 */
export const ORIGIN_SECRET_OVERLAP_SECONDS = 3600;

/** What the origin secret's value holds. */
export interface OriginSecretValue {
  header: string;
  since?: string;
}
