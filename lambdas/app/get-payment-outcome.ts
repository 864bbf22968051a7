import { Messages } from '../../contract/errors';
import { maskEmail } from '../../contract/mask-email';
import { type OrderStatus, type PaymentOutcome, type PaymentOutcomeResponse } from '../../contract/payments';
import { NotFound } from '../domain/errors';
import type { AccountStore } from '../ports/accounts';
import type { OrderStore } from '../ports/payments';
import { shownStatus } from './steps/order-status';

export interface GetPaymentOutcomeDeps {
  orders: Pick<OrderStore, 'get'>;
  accounts: Pick<AccountStore, 'get'>;
  now: () => Date;
}

const OUTCOME: Record<OrderStatus, PaymentOutcome> = {
  captured: 'success',
  pending: 'pending',
  canceled: 'cancel',
  created: 'error',
  failed: 'error',
  expired: 'error',
  partially_refunded: 'error',
  refunded: 'error',
  reversed: 'error',
};

/**
 * GET /api/payment-outcome?order=<id>: what the page a PayPal return landed on may say about that order. Success,
 * with the credits and the buyer's masked email, only for an order the server captured and credited; nothing in
 * the page's URL is taken into account. 404 for an order we do not have.
 */
export async function getPaymentOutcome(deps: GetPaymentOutcomeDeps, orderId: string): Promise<PaymentOutcomeResponse> {
  const order = await deps.orders.get(orderId);
  if (!order) throw new NotFound(Messages.unknownOrder);
  const status = shownStatus(order, deps.now()).status;
  // The buyer came back approved while PayPal could not be reached: the capture is still to come (the reconciler or
  // a webhook makes it), so this is pending, never a failure for a payment that then succeeds.
  const outcome = status === 'created' && order.returnedAt ? 'pending' : OUTCOME[status];
  if (outcome !== 'success') return { outcome };
  const account = await deps.accounts.get(order.owner);
  return { outcome, credits: order.credits, ...(account?.email ? { buyer: maskEmail(account.email) } : {}) };
}
