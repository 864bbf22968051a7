import { DEFAULT_PAYMENT_RETURN_PATH } from '../../contract/payments';
import { routeById } from '../../contract/routes';
import { subscriptionReturnPath } from '../../contract/subscriptions';
import { settleSubscriptionReturn } from '../app/settle-subscription-return';
import { subscriptionDeps } from '../wiring/deps';
import { publicRoute } from './http';

const route = routeById('subscriptionReturn');

/** PayPal sends the buyer's browser here: a browser follows it, so even a malformed link lands on a page, never on JSON. */
export const handler = publicRoute(
  route,
  async (req) => {
    const r = await settleSubscriptionReturn(subscriptionDeps(), req.query.subscription_id);
    return { redirect: subscriptionReturnPath(r.outcome, r.returnPath) };
  },
  { onInvalidInput: () => ({ redirect: subscriptionReturnPath('error', DEFAULT_PAYMENT_RETURN_PATH) }) },
);
