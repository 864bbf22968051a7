import { routeById } from '../../contract/routes';
import { listPayments } from '../app/list-payments';
import { listPaymentsDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('listPayments');

/** The caller's orders and credit ledger, newest first, a page at a time. */
export const handler = userRoute(route, async (req, me) => ({ body: await listPayments(listPaymentsDeps(), me.sub, req.query) }));
