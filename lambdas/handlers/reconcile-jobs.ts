import type { Context, ScheduledEvent } from 'aws-lambda';
import { reconcileJobs } from '../app/reconcile-jobs';
import { logger } from '../logger';
import { instrumented } from '../observability';
import { reconcileJobsDeps } from '../wiring/deps';

/** Every minute (EventBridge; locally a timer of RECONCILE_INTERVAL_MS): settle every open job from the provider. */
export const handler = (event: ScheduledEvent, context?: Context): Promise<void> => instrumented('reconcileJobs', () => reconcile(context))(event);

async function reconcile(context?: Context): Promise<void> {
  // Leave 5 s of the function's time for the jobs in hand; the rest wait for the next run.
  const deadline = context?.getRemainingTimeInMillis ? Date.now() + context.getRemainingTimeInMillis() - 5_000 : undefined;
  const report = await reconcileJobs({ ...reconcileJobsDeps(), ...(deadline ? { deadline: () => deadline } : {}) });
  if (report.open) logger.info('reconcile-jobs', { ...report });
}
