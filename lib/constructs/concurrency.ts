import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { RouteDef } from '../../contract/routes';
import { SettingsError } from '../settings';

/**
 * Reserved concurrency (with the `reservedConcurrency` setting): a provider's webhook always has instances of its own,
 * whatever a spike of polling takes, and generation cannot take more than its cap (each start is a provider call
 * that costs money). Everything else shares the rest of the account's pool.
 */
export const RESERVED_CONCURRENCY = {
  /** Every route with auth 'signature' (Replicate's and PayPal's webhooks). */
  webhook: 10,
  /** The generation routes (ids starting with "generate"), each. */
  generation: 20,
} as const;

export function reservedConcurrencyOf(route: Pick<RouteDef, 'id' | 'auth'>): number | undefined {
  if (route.auth === 'signature') return RESERVED_CONCURRENCY.webhook;
  if (route.id.startsWith('generate')) return RESERVED_CONCURRENCY.generation;
  return undefined;
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
