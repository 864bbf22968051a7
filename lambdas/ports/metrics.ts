/**
 * Business metrics: what an operator watches and alarms on (lib/constructs/observability.ts). Counted where the
 * outcome is decided and stored (the metered ports in adapters/metered.ts), so every path that starts, ends, refunds
 * or credits counts once: only a write that happened is counted, never a repeat that changed nothing.
 */
import { BusinessMetric } from '../../contract/metrics';

export { BusinessMetric };

/** Per-model metrics carry `model`; webhook ones `provider`. */
export type MetricDimensions = { model: string } | { provider: 'replicate' | 'paypal' };

export interface Metrics {
  count(metric: BusinessMetric, value?: number, dimensions?: MetricDimensions): void;
}
