/**
 * Buying credits, for other features:
 * - `BuyCreditsToggle`: the generators' 'Buy Credits' toggle revealing the three packs.
 * - `CreditPacks`: the packs with Buy buttons (POST /api/create-paypal-payment with the current page as returnPath,
 *   then PayPal's approval page).
 * - `WithdrawalConsent`: checkout's unticked box (the buyer asks for the credits now and acknowledges losing the right of
 *   withdrawal once they are used), before any pack or plan goes to PayPal.
 * - `PaymentReturnNotice`: on the generators and My Account, the message for `?payment=...` after PayPal sends the
 *   buyer back; re-reads the balance, then clears the payment keys from the query string.
 * - `PaymentHistory`: orders and credit ledger (My Account > My Payments).
 * - `landingPaymentNotice(answer)`: the landing page's message from the server's answer about the order (shown by
 *   marketing/payment-alert, which asks with './payment-outcome-api', clears the query with './use-payment-return'
 *   and asks again while pending with './use-pending-outcome', as PaymentReturnNotice does). Marketing pages import
 *   those files directly: this index also brings the
 *   signed-in parts (session, credits), which marketing pages must not load up front.
 * - The /buy page's address (`./buy-link`) is imported directly by the pricing page: it goes to PayPal for that pack
 *   once signed in (buy-page.tsx, a route of the app's router).
 */
export { BuyCreditsToggle } from './buy-credits-toggle';
export { CreditPacks } from './credit-packs';
export { WithdrawalConsent } from './withdrawal-consent';
export { PaymentReturnNotice } from './payment-return-notice';
export { PaymentHistory } from './payment-history';
export {
  landingPaymentNotice,
  paymentNotice,
  readPaymentReturn,
  withoutPaymentQuery,
} from './payment-messages';
export { paymentReturnPathFor } from './return-path';
