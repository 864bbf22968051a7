import { paymentReturnPath } from '../../contract/payments';
import { routeById } from '../../contract/routes';
import { completePaymentReturn } from '../app/settle-order';
import { paymentDeps } from './payments-deps';
import { publicRoute } from './http';

const route = routeById('paypalReturn');

/** PayPal sends the buyer's browser here: settle the order, then send the browser back to its page with the outcome. */
export const handler = publicRoute(route, async (req) => {
  const { outcome, returnPath } = await completePaymentReturn(paymentDeps, req.query);
  return { redirect: paymentReturnPath(outcome, returnPath) };
});
