import { ListPaymentsQuery } from '../../contract/payments';
import { routeById } from '../../contract/routes';
import { InvalidInput } from '../app/errors';
import { listPayments } from '../app/list-payments';
import { paymentDeps } from './payments-deps';
import { userRoute } from './http';

const route = routeById('listPayments');

/** The caller's orders and credit ledger, newest first, a page at a time. */
export const handler = userRoute(route, async (req, me) => {
  const q = ListPaymentsQuery.safeParse(req.query);
  if (!q.success) throw new InvalidInput(q.error.issues[0]?.message ?? 'Invalid query.', { field: q.error.issues[0]?.path.join('.') });
  return { body: await listPayments(paymentDeps, me.sub, q.data) };
});
