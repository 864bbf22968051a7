import { DEFAULT_PAYMENT_RETURN_PATH, type PaymentReturnParams } from '../../contract/payments';
import type { PaymentRedirect } from './settle-payment-return';
import type { SettleDeps } from './steps/settle-order';

/**
 * The buyer cancelled on PayPal (GET /api/paypal/cancel?token=<orderId>): an order still waiting for the buyer
 * becomes canceled, so My Payments says so. That is safe for an unauthenticated GET: a canceled order still
 * settles if PayPal later says it was approved and captured (the buyer went back and paid after all).
 */
export async function cancelPaymentReturn(deps: Pick<SettleDeps, 'orders' | 'log' | 'now'>, orderId: string): Promise<PaymentRedirect> {
  try {
    const order = await deps.orders.get(orderId);
    if (!order) return { outcome: { payment: 'cancel' }, returnPath: DEFAULT_PAYMENT_RETURN_PATH };
    await deps.orders.transition(order, ['created'], 'canceled', deps.now().toISOString());
    const outcome: PaymentReturnParams = { payment: 'cancel', order: order.id };
    return { outcome, returnPath: order.returnPath ?? DEFAULT_PAYMENT_RETURN_PATH };
  } catch (err) {
    // Nothing to settle: the landing page is a fine place to say so when the table does not answer.
    deps.log('Payment cancel could not read the order', { orderId, error: (err as Error).message });
    return { outcome: { payment: 'cancel' }, returnPath: DEFAULT_PAYMENT_RETURN_PATH };
  }
}
