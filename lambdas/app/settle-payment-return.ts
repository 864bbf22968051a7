import { DEFAULT_PAYMENT_RETURN_PATH, type PaymentReturnParams, type PaymentReturnPath } from '../../contract/payments';
import type { Order } from '../ports/payments';
import { settleStoredOrder, type SettleDeps, type Settlement } from './steps/settle-order';

/** Where PayPal's return or cancel sends the browser: the order's page in the app, with what to show there. */
export interface PaymentRedirect {
  outcome: PaymentReturnParams;
  returnPath: PaymentReturnPath;
}

/**
 * The buyer is back from PayPal (GET /api/paypal/return?token=<orderId>): capture and credit, then say what to
 * show and on which page (the one the buyer started from, stored on the order). The order id carries no
 * authority: only PayPal's answer about our stored order credits anything, and only to that order's owner.
 */
export async function settlePaymentReturn(deps: SettleDeps, orderId: string): Promise<PaymentRedirect> {
  let order: Order | undefined;
  let s: Settlement;
  try {
    order = await deps.orders.get(orderId);
    if (!order) return { outcome: { payment: 'error' }, returnPath: DEFAULT_PAYMENT_RETURN_PATH };
    s = await settleStoredOrder(deps, order, 'capture');
  } catch (err) {
    // PayPal or our table did not answer: the order may be paid. PayPal's webhooks keep coming until it is settled.
    deps.log('Payment return could not be settled now', { orderId, error: (err as Error).message });
    return { outcome: { payment: 'pending' }, returnPath: order?.returnPath ?? DEFAULT_PAYMENT_RETURN_PATH };
  }
  const returnPath = order.returnPath ?? DEFAULT_PAYMENT_RETURN_PATH;
  switch (s.result) {
    case 'credited':
    case 'already-credited':
      return { outcome: { payment: 'success', userId: s.order.owner, credits: s.order.credits }, returnPath };
    case 'pending':
      return { outcome: { payment: 'pending' }, returnPath };
    default:
      return { outcome: { payment: 'error' }, returnPath };
  }
}
