/**
 * Powertools Tracer (X-Ray) and Metrics (CloudWatch EMF) for every function, beside the Logger (logger.ts).
 * `instrumented` wraps each handler (http.ts does it for every route; the background handlers themselves): a
 * subsegment per invocation with the cold start annotated, errors recorded, and the metrics flushed at the end.
 * Outside Lambda the tracer is off by itself; the embedded stack sets POWERTOOLS_METRICS_DISABLED so no EMF is printed.
 */
import { Metrics as PowertoolsMetrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import { METRICS_NAMESPACE } from '../contract/metrics';
import type { MetricDimensions, Metrics } from './ports/metrics';
const SERVICE = 'framewright';

export const tracer = new Tracer({ serviceName: SERVICE });
const emf = new PowertoolsMetrics({ namespace: METRICS_NAMESPACE, serviceName: SERVICE });

/** The Metrics port on Powertools: one EMF record per dimensioned count, the rest batched until the flush. */
export const businessMetrics: Metrics = {
  count(metric, value = 1, dimensions?: MetricDimensions) {
    if (!dimensions) {
      emf.addMetric(metric, MetricUnit.Count, value);
      return;
    }
    const single = emf.singleMetric();
    for (const [k, v] of Object.entries(dimensions)) single.addDimension(k, v);
    single.addMetric(metric, MetricUnit.Count, value);
  },
};

export function instrumented<E, R, C = unknown>(name: string, handler: (event: E, context?: C) => Promise<R>): (event: E, context?: C) => Promise<R> {
  return async (event, context) => {
    const parent = tracer.getSegment();
    const segment = parent?.addNewSubsegment(`## ${name}`);
    if (segment) tracer.setSegment(segment);
    tracer.annotateColdStart();
    tracer.addServiceNameAnnotation();
    try {
      return await handler(event, context);
    } catch (err) {
      tracer.addErrorAsMetadata(err as Error);
      throw err;
    } finally {
      segment?.close();
      if (parent) tracer.setSegment(parent);
      if (emf.hasStoredMetrics()) emf.publishStoredMetrics();
    }
  };
}
