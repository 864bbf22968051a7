import { ROUTES, type RouteDef } from './routes';

/**
 * How long a webhook delivery's claim without an outcome holds (steps/receive-webhook.ts): a process that claimed a
 * delivery and died before applying it (killed, timed out, out of memory) leaves a claim no one finishes, so after
 * the lease the provider's next retry takes it again. Twice the longest timeout of the functions that claim (the
 * webhook routes, auth 'signature'): no claim is taken from a function still running. test/infra/api.test.ts checks
 * it against the deployed functions' timeouts. Locally WEBHOOK_LEASE_SECONDS may shorten it (docs/local-stack.md).
 */
export const WEBHOOK_LEASE_SECONDS =
  2 * Math.max(...(ROUTES as readonly RouteDef[]).filter((r) => r.auth === 'signature').map((r) => r.timeoutSeconds ?? Number.POSITIVE_INFINITY));
