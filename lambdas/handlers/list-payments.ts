import { routeById } from '../../contract/routes';
import { listPayments } from '../app/list-payments';
import { paymentDeps } from './payments-deps';
import { userRoute, validQuery } from './http';

const route = routeById('listPayments');

/** The caller's orders and credit ledger, newest first, a page at a time. */
export const handler = userRoute(route, async (req, me) => {
  return { body: await listPayments(paymentDeps, me.sub, validQuery(route.query, req.query)) };
});
