import type { Context, ScheduledEvent } from 'aws-lambda';
import { reconcileOrders } from '../app/reconcile-orders';
import { logger } from '../logger';
import { instrumented } from '../observability';
import { reconcileOrdersDeps } from '../wiring/deps';

/** Every minute (EventBridge; locally a timer of RECONCILE_INTERVAL_MS): capture or read every open PayPal order. */
export const handler = (event: ScheduledEvent, context?: Context): Promise<void> => instrumented('reconcileOrders', () => reconcile(context))(event);

async function reconcile(context?: Context): Promise<void> {
  // Leave 5 s of the function's time for the order in hand; the rest wait for the next run.
  const deadline = context?.getRemainingTimeInMillis ? Date.now() + context.getRemainingTimeInMillis() - 5_000 : undefined;
  const report = await reconcileOrders({ ...reconcileOrdersDeps(), ...(deadline ? { deadline: () => deadline } : {}) });
  if (report.open) logger.info('reconcile-orders', { ...report });
}
