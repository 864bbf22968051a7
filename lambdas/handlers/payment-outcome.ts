import { routeById } from '../../contract/routes';
import { getPaymentOutcome } from '../app/get-payment-outcome';
import { getPaymentOutcomeDeps } from '../wiring/deps';
import { publicRoute } from './http';

const route = routeById('paymentOutcome');

/** What the page a PayPal return landed on may say about its order: only what the server stored. */
export const handler = publicRoute(route, async (req) => ({ body: await getPaymentOutcome(getPaymentOutcomeDeps(), req.query.order) }));
