import { paymentReturnPath } from '../../contract/payments';
import { routeById } from '../../contract/routes';
import { publicRoute } from './http';

const route = routeById('paypalCancel');

/**
 * The buyer cancelled on PayPal. Nothing changes: PayPal keeps the order open (the buyer may still pay it from
 * the same page), and an unauthenticated GET must not be able to alter an order anyway.
 */
export const handler = publicRoute(route, async () => ({ redirect: paymentReturnPath({ payment: 'cancel' }) }));
