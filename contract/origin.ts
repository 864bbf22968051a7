/**
 * The header CloudFront adds to every request it sends to the API, with a secret value (lib/constructs/origin-secret.ts);
 * every API function refuses a request without it (lambdas/handlers/origin.ts), and the embedded stack's single origin
 * adds it as CloudFront does (local/gateway/edge.ts).
 */
export const ORIGIN_HEADER = 'x-origin-verify';
