import { isPaymentReturnPath, type PaymentReturnPathValue as PaymentReturnPath } from '../../../../contract/payment-return-paths';
import { normalizePath } from '../../lib/normalize-path';

/**
 * The page to come back to after PayPal, when `pathname` is one the server accepts (contract PAYMENT_RETURN_PATHS:
 * the generators, My Account, the landing page); otherwise undefined, and the server brings the buyer to '/'.
 * A trailing slash is ignored (/generator/ is /generator).
 */
export function paymentReturnPathFor(pathname: string): PaymentReturnPath | undefined {
  // '//' trims to '': that is the landing page too.
  const path = normalizePath(pathname) || '/';
  return isPaymentReturnPath(path) ? path : undefined;
}
