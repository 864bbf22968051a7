import { routeById } from '../../contract/routes';
import { createPayment } from '../app/create-payment';
import { getOrCreateAccount } from '../app/get-account';
import { accountDeps } from './account-deps';
import { paymentDeps } from './payments-deps';
import { userRoute } from './http';

const route = routeById('createPaypalPayment');

export const handler = userRoute(route, async (req, me) => {
  // The account must exist before the buyer pays: the credits go onto it.
  await getOrCreateAccount(accountDeps, me);
  return { body: await createPayment(paymentDeps, me.sub, req.body) };
});
