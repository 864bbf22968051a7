import { DEFAULT_PAYMENT_RETURN_PATH, type PaymentReturnParams } from '../../contract/payments';
import type { PaymentRedirect } from './settle-payment-return';
import type { SettleDeps } from './steps/settle-order';

/**
 * The buyer cancelled on PayPal (GET /api/paypal/cancel?token=<orderId>): nothing changes (PayPal keeps the order
 * open, and an unauthenticated GET must not alter an order anyway); only the page to go back to is looked up.
 */
export async function cancelPaymentReturn(deps: Pick<SettleDeps, 'orders' | 'log'>, orderId: string): Promise<PaymentRedirect> {
  const outcome: PaymentReturnParams = { payment: 'cancel' };
  try {
    const order = await deps.orders.get(orderId);
    return { outcome, returnPath: order?.returnPath ?? DEFAULT_PAYMENT_RETURN_PATH };
  } catch (err) {
    // Nothing to settle: the landing page is a fine place to say so when the table does not answer.
    deps.log('Payment cancel could not read the order', { orderId, error: (err as Error).message });
    return { outcome, returnPath: DEFAULT_PAYMENT_RETURN_PATH };
  }
}
