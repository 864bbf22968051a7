/**
 * The safety net of plans, as reconcile-orders is of packs: whether or not PayPal's webhooks and the buyer's return
 * arrived (a webhook's claim lost in a crash, PayPal's retries given up), each watched PayPal subscription (every one
 * we made, from the sparse gsi1 partition `PLAN_WATCH`, least recently read first, never a scan) is read at PayPal
 * (its status recorded as the return would) with its transactions (`GET /v1/billing/subscriptions/{id}/transactions`):
 * - every sale that took the buyer's money and is not granted yet is granted, through the same step as the webhook
 *   (`grantSale`: once, by its sale id), capped as of the sale's date (a month granted late keeps its credits);
 * - a REFUNDED sale is taken back in full through the same claw-back as its webhook (steps/take-back.ts), once: its
 *   refund is keyed `<saleId>:REFUNDED`, and totals are cumulative, so the refund's own webhook after changes nothing;
 * - a PARTIALLY_REFUNDED sale whose refund we never saw is only counted and logged: PayPal's list does not say how much
 *   went back (its refund webhook does), and credits are never taken back on a guess.
 * A plan stays watched until it has been over at PayPal (cancelled, expired) for WATCH_AFTER_END_MS, or was never
 * approved in as long; refunds and reversals of its payments still arrive as webhooks after that.
 * A completed sale still not granted UNGRANTED_ALARM_MS after PayPal took it is counted `overdue` (the handler's
 * metric, alarmed: docs/deploy.md).
 */
import { toCents } from '../../contract/packs';
import { PaymentRefused } from '../ports/payments';
import type { ProviderSale, WatchedPlan } from '../ports/subscriptions';
import type { SettleDeps } from './steps/settle-order';
import { PAID_SALES, grantSale, readSubscription, type SubscriptionDeps } from './steps/subscription-payments';
import { applyRefundEvent } from './steps/take-back';

export interface ReconcileSubscriptionsDeps extends SubscriptionDeps, SettleDeps {
  /** Stop taking new plans after this moment (the function's own deadline), leaving the rest to the next run. */
  deadline?: () => number;
}

export interface ReconcileSubscriptionsReport {
  /** Plans read at PayPal. */
  plans: number;
  granted: number;
  takenBack: number;
  /** Completed sales PayPal took at least UNGRANTED_ALARM_MS ago that are still not granted after this run. */
  overdue: number;
  /** Partly refunded sales whose refund we have not seen (PayPal's list gives no amount). */
  refundUnknown: number;
  /** Plans PayPal did not answer for: read again next run. */
  unreachable: number;
  /** Sales whose grant or take-back failed (our table, or a grant refused): tried again next run. */
  failed: number;
  /** Plans no longer watched. */
  stopped: number;
}

/** A completed sale not granted this long after PayPal took it raises the alarm. */
export const UNGRANTED_ALARM_MS = 60 * 60_000;
/** How long after it ended (or was made, never approved) a plan is still read: refunds come within a month. */
const WATCH_AFTER_END_MS = 35 * 24 * 3600_000;
const DAY_MS = 24 * 3600_000;
/** Watched plans read per page. */
const PAGE = 50;
const ENDED = new Set(['CANCELLED', 'EXPIRED']);

export async function reconcileSubscriptions(deps: ReconcileSubscriptionsDeps): Promise<ReconcileSubscriptionsReport> {
  const report: ReconcileSubscriptionsReport = { plans: 0, granted: 0, takenBack: 0, overdue: 0, refundUnknown: 0, unreachable: 0, failed: 0, stopped: 0 };
  const read = new Set<string>();
  let cursor: string | undefined;
  do {
    const page = await deps.subscriptions.listWatched(PAGE, cursor);
    for (const plan of page.items) {
      // Read in this run already (it moved to the end of the list): every plan has had its turn.
      if (read.has(plan.id)) return report;
      read.add(plan.id);
      if (deps.deadline && Date.now() > deps.deadline()) return report;
      report.plans++;
      await reconcilePlan(deps, plan, report);
    }
    cursor = page.nextCursor;
  } while (cursor);
  return report;
}

async function reconcilePlan(deps: ReconcileSubscriptionsDeps, plan: WatchedPlan, report: ReconcileSubscriptionsReport): Promise<void> {
  const now = deps.now();
  let sales: ProviderSale[];
  let status: string;
  try {
    const read = await readSubscription(deps, plan.id);
    if (!read) {
      await deps.subscriptions.stopWatching(plan);
      report.stopped++;
      return;
    }
    status = read.at.status;
    const from = new Date(Date.parse(plan.createdAt) - DAY_MS);
    sales = status === 'APPROVAL_PENDING' ? [] : await (await deps.subscriptionProvider()).listSales(plan.id, from, new Date(now.getTime() + DAY_MS));
  } catch (err) {
    if (err instanceof PaymentRefused && err.status === 404) {
      deps.log('A watched plan PayPal does not know', { subscriptionId: plan.id });
      await deps.subscriptions.stopWatching(plan);
      report.stopped++;
      return;
    }
    // PayPal (or our table) did not answer: the plan goes to the end of the list and is read again next run.
    deps.log('Plan not reconciled now', { subscriptionId: plan.id, error: (err as Error).message });
    report.unreachable++;
    await deps.subscriptions.markChecked(plan, now.toISOString(), plan.endedAt);
    return;
  }

  for (const sale of sales) {
    if (!PAID_SALES.has(sale.status)) continue;
    const granted = await grantIfMissing(deps, plan.id, sale, report);
    if (!granted) {
      if (sale.status === 'COMPLETED' && now.getTime() - Date.parse(sale.time) >= UNGRANTED_ALARM_MS) report.overdue++;
      continue;
    }
    if (sale.status === 'REFUNDED') await takeBackAll(deps, plan.id, sale, report);
    if (sale.status === 'PARTIALLY_REFUNDED') {
      const order = await deps.orders.get(sale.id);
      if (!order?.refundedCents) {
        deps.log('A partly refunded billing payment whose refund we have not seen', { subscriptionId: plan.id, saleId: sale.id });
        report.refundUnknown++;
      }
    }
  }

  const endedAt = ENDED.has(status) ? (plan.endedAt ?? now.toISOString()) : undefined;
  const neverApproved = status === 'APPROVAL_PENDING' && now.getTime() - Date.parse(plan.createdAt) > WATCH_AFTER_END_MS;
  if (neverApproved || (endedAt && now.getTime() - Date.parse(endedAt) > WATCH_AFTER_END_MS)) {
    await deps.subscriptions.stopWatching(plan);
    report.stopped++;
  } else await deps.subscriptions.markChecked(plan, now.toISOString(), endedAt);
}

/** The sale granted (now or before); false when it could not be (a payment for no plan of ours, or a failure). */
async function grantIfMissing(deps: ReconcileSubscriptionsDeps, subscriptionId: string, sale: ProviderSale, report: ReconcileSubscriptionsReport): Promise<boolean> {
  try {
    if (await deps.orders.get(sale.id)) return true;
    const r = await grantSale(deps, subscriptionId, sale);
    if (r === 'granted') report.granted++;
    return r !== 'ignored';
  } catch (err) {
    deps.log('Billing payment not granted now', { subscriptionId, saleId: sale.id, error: (err as Error).message });
    report.failed++;
    return false;
  }
}

/** A sale PayPal lists as REFUNDED: all of it went back; its credits are taken back once. */
async function takeBackAll(deps: ReconcileSubscriptionsDeps, subscriptionId: string, sale: ProviderSale, report: ReconcileSubscriptionsReport): Promise<void> {
  try {
    const order = await deps.orders.get(sale.id);
    const cents = toCents(sale.amount.value);
    if (!order || cents === undefined || (order.refundedCents ?? 0) >= cents) return;
    const r = await applyRefundEvent(
      deps,
      { eventId: `reconcile:${sale.id}`, eventType: 'PAYMENT.SALE.REFUNDED', orderId: sale.id, captureId: sale.id, subscriptionId, refund: { id: `${sale.id}:REFUNDED`, amount: sale.amount } },
      'purchase-refund',
    );
    if (r.result === 'taken-back') report.takenBack++;
  } catch (err) {
    deps.log('Refunded billing payment not taken back now', { subscriptionId, saleId: sale.id, error: (err as Error).message });
    report.failed++;
  }
}
