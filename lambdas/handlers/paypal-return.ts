import { routeById } from '../../contract/routes';
import { settlePaymentReturn } from '../app/settle-payment-return';
import { settlePaymentReturnDeps } from '../wiring/deps';
import { paymentRedirectRoute } from './payment-redirect';

/** PayPal sends the buyer's browser here: settle the order, then send the browser back to its page with the outcome. */
export const handler = paymentRedirectRoute(routeById('paypalReturn'), (orderId) => settlePaymentReturn(settlePaymentReturnDeps(), orderId), {
  payment: 'error',
});
