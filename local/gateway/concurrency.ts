/**
 * Lambda's concurrency, as the local gateway applies it to the functions it invokes: a function with reserved
 * concurrency (lib/constructs/concurrency.ts) runs at most that many invocations at once, and every other function
 * shares what the account has left. An invocation past its pool is refused before the function runs (Lambda's
 * TooManyRequestsException), which API Gateway answers 500 `{"message":"Internal Server Error"}`: nothing ran,
 * nothing was charged. The local account is the smallest a deploy with reservations accepts (assertQuotaHolds):
 * the reservations plus the 100 unreserved executions Lambda keeps. Besides being the cloud's rule, this is what keeps
 * one Node process from taking on more invocations than it can serve (each then waited seconds for its own AWS
 * calls, and answered 503). Written by hand: a counter per pool, nothing a library adds.
 */
import type { RouteDef } from '../../contract/routes';
import { reservedConcurrencyOf, UNRESERVED_MINIMUM } from '../../lib/constructs/concurrency';

/** The smallest account concurrency the routes' reservations deploy to. */
export function smallestAccountConcurrency(routes: readonly Pick<RouteDef, 'id' | 'auth'>[]): number {
  return routes.reduce((sum, r) => sum + (reservedConcurrencyOf(r) ?? 0), 0) + UNRESERVED_MINIMUM;
}

interface Pool {
  limit: number;
  running: number;
}

/** `start(route)` answers the function's release when it may run now, or undefined when Lambda would throttle it. */
export function functionConcurrency(routes: readonly RouteDef[], accountConcurrency = smallestAccountConcurrency(routes)) {
  const reserved = new Map<string, Pool>();
  for (const r of routes) {
    const n = reservedConcurrencyOf(r);
    if (n !== undefined) reserved.set(r.id, { limit: n, running: 0 });
  }
  const reservedTotal = [...reserved.values()].reduce((sum, p) => sum + p.limit, 0);
  const unreserved: Pool = { limit: Math.max(0, accountConcurrency - reservedTotal), running: 0 };
  return {
    start(route: RouteDef): (() => void) | undefined {
      const pool = reserved.get(route.id) ?? unreserved;
      if (pool.running >= pool.limit) return undefined;
      pool.running++;
      let released = false;
      return () => {
        if (released) return;
        released = true;
        pool.running--;
      };
    },
  };
}
