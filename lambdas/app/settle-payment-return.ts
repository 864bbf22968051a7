import { DEFAULT_PAYMENT_RETURN_PATH, type PaymentReturnParams, type PaymentReturnPath } from '../../contract/payments';
import type { Order } from '../ports/payments';
import { settleStoredOrder, type SettleDeps, type Settlement } from './steps/settle-order';

/**
 * Where PayPal's return or cancel sends the browser: the order's page in the app, with the order to ask about
 * (GET /api/payment-outcome); or, when the buyer's funding source was declined, back to PayPal's approval page.
 */
export type PaymentRedirect = { outcome: PaymentReturnParams; returnPath: PaymentReturnPath } | { approvalUrl: string };

/**
 * The buyer is back from PayPal (GET /api/paypal/return?token=<orderId>): capture and credit, then say where to
 * go (the page the buyer started from, stored on the order). The order id carries no authority: only PayPal's
 * answer about our stored order credits anything, only to that order's owner, and the redirect names no user.
 */
export async function settlePaymentReturn(deps: SettleDeps, orderId: string): Promise<PaymentRedirect> {
  let order: Order | undefined;
  let s: Settlement;
  try {
    order = await deps.orders.get(orderId);
    if (!order) return { outcome: { payment: 'error' }, returnPath: DEFAULT_PAYMENT_RETURN_PATH };
    s = await settleStoredOrder(deps, order, 'capture');
  } catch (err) {
    // PayPal or our table did not answer: the order may be paid. The reconciler (and PayPal's webhooks, while they
    // last) captures it; until then the page is told pending, and the order remembers it so the outcome says so too.
    deps.log('Payment return could not be settled now', { orderId, error: (err as Error).message });
    if (order) await deps.orders.markReturned(order, deps.now().toISOString()).catch(() => undefined);
    return { outcome: { payment: 'pending', ...(order ? { order: order.id } : {}) }, returnPath: order?.returnPath ?? DEFAULT_PAYMENT_RETURN_PATH };
  }
  const returnPath = order.returnPath ?? DEFAULT_PAYMENT_RETURN_PATH;
  const back = (payment: PaymentReturnParams['payment']) => ({ outcome: { payment, order: order.id }, returnPath });
  switch (s.result) {
    case 'credited':
    case 'already-credited':
      return back('success');
    case 'pending':
      return back('pending');
    case 'retry-approval':
      return { approvalUrl: s.approvalUrl };
    default:
      return back('error');
  }
}
