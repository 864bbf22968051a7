import { routeById } from '../../contract/routes';
import { cancelPaymentReturn } from '../app/cancel-payment-return';
import { cancelPaymentReturnDeps } from '../wiring/deps';
import { paymentRedirectRoute } from './payment-redirect';

/** The buyer cancelled on PayPal: back to the page they started from, with `payment=cancel`. Nothing changes. */
export const handler = paymentRedirectRoute(routeById('paypalCancel'), (orderId) => cancelPaymentReturn(cancelPaymentReturnDeps(), orderId), {
  payment: 'cancel',
});
