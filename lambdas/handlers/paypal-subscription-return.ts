import { DEFAULT_PAYMENT_RETURN_PATH, subscriptionReturnPath } from '../../contract/payment-return-paths';
import { routeById } from '../../contract/routes';
import { publicRoute } from './http';

const route = routeById('subscriptionReturn');

/**
 * PayPal sends the buyer's browser here, approved or cancelled. Anyone can open this link with any subscription id and
 * no session, so it reads nothing and changes nothing (the function has no table or PayPal grant): the same redirect,
 * to the page named in the URL we gave PayPal (`to`), with the neutral `?subscription=returned`, whatever the id.
 * The page, signed in, asks GET /api/subscription for the plan (app/get-subscription.ts reads a pending one at PayPal).
 */
export const handler = publicRoute(route, async (req) => ({ redirect: subscriptionReturnPath(req.query.to ?? DEFAULT_PAYMENT_RETURN_PATH) }), {
  onInvalidInput: () => ({ redirect: subscriptionReturnPath(DEFAULT_PAYMENT_RETURN_PATH) }),
});
