import type { BusinessMetric, MetricDimensions, Metrics } from '../../../lambdas/ports/metrics';

/** The Metrics port in memory: every count, in order. */
export class MemoryMetrics implements Metrics {
  readonly counts: Array<{ metric: BusinessMetric; value: number; dimensions?: MetricDimensions }> = [];

  count(metric: BusinessMetric, value = 1, dimensions?: MetricDimensions): void {
    this.counts.push({ metric, value, ...(dimensions ? { dimensions } : {}) });
  }

  total(metric: BusinessMetric): number {
    return this.counts.filter((c) => c.metric === metric).reduce((n, c) => n + c.value, 0);
  }
}
