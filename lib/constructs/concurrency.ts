import type * as lambda from 'aws-cdk-lib/aws-lambda';
import { CAPACITY_ASSUMPTIONS } from '../../contract/capacity-model';
import { MODELS } from '../../contract/models';
import type { RouteDef } from '../../contract/routes';
import { SettingsError } from '../settings';

/**
 * Reserved concurrency (with the `reservedConcurrency` setting): a provider's webhook always has instances of its own,
 * whatever a spike of polling takes, and generation cannot take more than its cap (each start is a provider call
 * that costs money). Everything else shares the rest of the account's pool.
 *
 * A reservation holds its route's throttle (contract/throttles.ts): a full burst arrives at once and the rate keeps
 * coming while it runs, so at most burst + rate x hold seconds run together. Past the reservation Lambda throttles the
 * invocation and API Gateway answers 500; under it the route's own throttle answers 429 first
 * (test/infra/limits.test.ts checks the synthesised template).
 */
export const RESERVED_CONCURRENCY = {
  /** Every route with auth 'signature' (Replicate's and PayPal's webhooks): 30 burst + 30/s x 1 s. */
  webhook: 60,
  /** Each generation route (GENERATION_ROUTES): 20 burst + 20/s x 6 s (a `Prefer: wait` start). */
  generation: 140,
} as const;

/** The routes that start jobs (one use case; generate-image and generate-video are its aliases). */
const GENERATION_ROUTES: readonly string[] = ['generateImage', 'generateVideo', 'generations'];

export function reservedConcurrencyOf(route: Pick<RouteDef, 'id' | 'auth'>): number | undefined {
  if (route.auth === 'signature') return RESERVED_CONCURRENCY.webhook;
  if (GENERATION_ROUTES.includes(route.id)) return RESERVED_CONCURRENCY.generation;
  return undefined;
}

/**
 * The seconds one invocation of a reserved route's function holds an execution: a start waits for the slowest
 * `Prefer: wait` model (its result comes in the create call's answer) plus the create's own round trip; a webhook, one
 * provider round trip (PayPal's signature check) and its write.
 */
export function holdSecondsOf(route: Pick<RouteDef, 'id' | 'auth'>): number {
  const roundTrip = CAPACITY_ASSUMPTIONS.createSeconds;
  if (GENERATION_ROUTES.includes(route.id)) return Math.max(0, ...MODELS.map((m) => m.waitSeconds ?? 0)) + roundTrip;
  return roundTrip;
}

export function reserveConcurrency(fn: lambda.Function, n: number | undefined): void {
  if (n !== undefined) (fn.node.defaultChild as lambda.CfnFunction).reservedConcurrentExecutions = n;
}

/** Lambda refuses a reservation that leaves the account fewer than this many unreserved concurrent executions. */
export const UNRESERVED_MINIMUM = 100;

/** Stops with one line when the account's quota cannot hold the reservations (the deploy would fail half-way). */
export function assertQuotaHolds(routes: readonly Pick<RouteDef, 'id' | 'auth'>[], accountConcurrency: number | undefined): void {
  if (accountConcurrency === undefined) return;
  const reserved = routes.reduce((sum, r) => sum + (reservedConcurrencyOf(r) ?? 0), 0);
  const needed = reserved + UNRESERVED_MINIMUM;
  if (accountConcurrency < needed) {
    throw new SettingsError(
      `Context "accountConcurrency" is ${accountConcurrency}, below the ${needed} reservedConcurrency needs (${reserved} reserved + ${UNRESERVED_MINIMUM} Lambda keeps unreserved): raise the quota first (docs/deploy.md) or pass -c reservedConcurrency=false`,
    );
  }
}
