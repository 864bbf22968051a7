/**
 * API Gateway's request throttling, as the local gateway applies it: every route has a token bucket of its own with
 * its kind's rate and burst (contract/throttles.ts: the stage's RouteSettings, and its default for the rest), inside the
 * account's bucket for the whole region (10,000 requests a second, bursts of 5,000). A request finding its bucket
 * empty is answered 429 `{"message":"Too Many Requests"}` before anything runs: API Gateway sends no Retry-After, so
 * neither does this (clients back off on their own). Written by hand: a few lines of token bucket, and the rate
 * limiters on npm count windows per key rather than API Gateway's bucket per route.
 */
import { THROTTLES, throttleClassOf } from '../../contract/throttles';
import type { RouteDef } from '../../contract/routes';

/** API Gateway's account-level throttle per region (a quota AWS can raise). */
export const ACCOUNT_THROTTLE = { rateLimit: 10_000, burstLimit: 5_000 } as const;

interface Bucket {
  rate: number;
  burst: number;
  tokens: number;
  at: number;
}

const bucket = (limits: { rateLimit: number; burstLimit: number }, now: number): Bucket => ({ rate: limits.rateLimit, burst: limits.burstLimit, tokens: limits.burstLimit, at: now });

/** Refills by the time passed, then takes one token if there is one. */
function take(b: Bucket, now: number): boolean {
  b.tokens = Math.min(b.burst, b.tokens + ((now - b.at) / 1000) * b.rate);
  b.at = now;
  if (b.tokens < 1) return false;
  b.tokens -= 1;
  return true;
}

/** A throttle for these routes: `admit(route)` is false when the request must be answered 429. */
export function routeThrottle(routes: readonly RouteDef[], now: () => number = Date.now) {
  const start = now();
  const account = bucket(ACCOUNT_THROTTLE, start);
  const perRoute = new Map(routes.map((r) => [r.id, bucket(THROTTLES[throttleClassOf(r)], start)]));
  return {
    admit(route: RouteDef): boolean {
      const t = now();
      const own = perRoute.get(route.id);
      // The route's own bucket first: a request it refuses takes nothing from the account's.
      if (own && !take(own, t)) return false;
      return take(account, t);
    },
  };
}
