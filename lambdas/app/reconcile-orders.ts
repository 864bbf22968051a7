/**
 * The safety net that settles every order PayPal may still pay, whether or not the buyer came back and whether or not
 * PayPal's webhooks arrived (they stop after PayPal's retries): each open order (from the sparse open-orders index,
 * never a scan) is captured if the buyer approved it, or read if its capture is held. The same step as the return and
 * the webhook (steps/settle-order.ts), so whichever comes first credits and the others change nothing.
 */
import { ORDER_APPROVAL_WINDOW_MS } from '../../contract/payments';
import type { Order } from '../ports/payments';
import { settleStoredOrder, type SettleDeps, type Settlement } from './steps/settle-order';

export interface ReconcileOrdersDeps extends SettleDeps {
  /** Stop taking new orders after this moment (the function's own deadline), leaving the rest to the next run. */
  deadline?: () => number;
}

export type OrderReconciliation = Settlement['result'] | 'closed' | 'unreachable';

export interface ReconcileOrdersReport {
  open: number;
  settled: Partial<Record<OrderReconciliation, number>>;
}

/** Open orders read per run, oldest first. */
const PAGE = 100;
/** After the approval window, a little longer: PayPal's clock and ours may differ. */
const CLOSE_AFTER_MS = ORDER_APPROVAL_WINDOW_MS + 10 * 60_000;
/** Results after which an order past its approval window can never be paid: it leaves the open list. */
const NEVER_PAID: readonly OrderReconciliation[] = ['not-approved', 'retry-approval', 'refused'];

export async function reconcileOrders(deps: ReconcileOrdersDeps): Promise<ReconcileOrdersReport> {
  const report: ReconcileOrdersReport = { open: 0, settled: {} };
  // Every open order, a page at a time (not only the oldest page): the deadline alone leaves the rest to the next run.
  let cursor: string | undefined;
  do {
    const page = await deps.orders.listOpen(PAGE, cursor);
    report.open += page.items.length;
    for (const order of page.items) {
      if (deps.deadline && Date.now() > deps.deadline()) return report;
      const outcome = await settleSafely(deps, order);
      report.settled[outcome] = (report.settled[outcome] ?? 0) + 1;
    }
    cursor = page.nextCursor;
  } while (cursor);
  return report;
}

async function settleSafely(deps: ReconcileOrdersDeps, order: Order): Promise<OrderReconciliation> {
  try {
    // A held capture is only read; anything else is captured if approved (the capture's PayPal-Request-Id is the
    // order's, so a capture the return or a webhook makes at the same moment is the same capture).
    const s = await settleStoredOrder(deps, order, order.status === 'pending' ? 'check' : 'capture');
    if (NEVER_PAID.includes(s.result) && deps.now().getTime() - Date.parse(order.createdAt) > CLOSE_AFTER_MS) {
      await deps.orders.closeOpen(order);
      return 'closed';
    }
    return s.result;
  } catch (err) {
    // PayPal (or the table) did not answer: the order stays open for the next run.
    deps.log('Open order not reconciled now', { orderId: order.id, error: (err as Error).message });
    return 'unreachable';
  }
}
