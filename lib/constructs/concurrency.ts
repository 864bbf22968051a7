import type * as lambda from 'aws-cdk-lib/aws-lambda';
import type { RouteDef } from '../../contract/routes';

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
