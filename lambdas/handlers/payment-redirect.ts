import { DEFAULT_PAYMENT_RETURN_PATH, paymentReturnPath, type PaymentReturnParams } from '../../contract/payments';
import type { RouteOf } from '../../contract/routes';
import type { PaymentRedirect } from '../app/settle-payment-return';
import { publicRoute } from './http';

/**
 * PayPal's return and cancel links: the buyer's browser arrives with `?token=<orderId>` and is sent back to a page of
 * the app with the outcome. A browser follows these links, so a malformed one still lands on a page, never on JSON.
 */
export function paymentRedirectRoute(
  route: RouteOf<'paypalReturn' | 'paypalCancel'>,
  useCase: (orderId: string) => Promise<PaymentRedirect>,
  whenMalformed: PaymentReturnParams,
) {
  return publicRoute(
    route,
    async (req) => {
      const next = await useCase(req.query.token);
      // The approval page is PayPal's link stored with the order (or given by PayPal), never the caller's.
      if ('approvalUrl' in next) return { redirect: next.approvalUrl };
      return { redirect: paymentReturnPath(next.outcome, next.returnPath) };
    },
    { onInvalidInput: () => ({ redirect: paymentReturnPath(whenMalformed, DEFAULT_PAYMENT_RETURN_PATH) }) },
  );
}
