import type { Context, ScheduledEvent } from 'aws-lambda';
import { BusinessMetric } from '../../contract/metrics';
import { reconcileSubscriptions } from '../app/reconcile-subscriptions';
import { logger } from '../logger';
import { businessMetrics, instrumented } from '../observability';
import { reconcileSubscriptionsDeps } from '../wiring/deps';

/**
 * Every 10 minutes (EventBridge; locally a timer of RECONCILE_INTERVAL_MS): read every watched PayPal subscription and
 * its transactions, grant what was paid and not granted, take back what was refunded. Each run counts the completed
 * sales still ungranted an hour after PayPal took them (0 too, so the alarm always has its datapoint).
 */
export const handler = (event: ScheduledEvent, context?: Context): Promise<void> => instrumented('reconcileSubscriptions', () => reconcile(context))(event);

async function reconcile(context?: Context): Promise<void> {
  // Leave 5 s of the function's time for the plan in hand; the rest wait for the next run (least recently read first).
  const deadline = context?.getRemainingTimeInMillis ? Date.now() + context.getRemainingTimeInMillis() - 5_000 : undefined;
  const report = await reconcileSubscriptions({ ...reconcileSubscriptionsDeps(), ...(deadline ? { deadline: () => deadline } : {}) });
  businessMetrics.count(BusinessMetric.PlanSalesUngranted, report.overdue);
  if (report.granted || report.takenBack || report.overdue || report.refundUnknown || report.failed || report.unreachable) logger.info('reconcile-subscriptions', { ...report });
}
