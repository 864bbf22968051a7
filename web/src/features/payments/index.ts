/**
 * Buying credits, for other features:
 * - `BuyCreditsToggle`: the generators' 'Buy Credits' toggle revealing the three packs.
 * - `CreditPacks`: the packs with Buy buttons (POST /api/create-paypal-payment, then PayPal's approval page).
 * - `PaymentReturnNotice`: the message for `?payment=...` after PayPal sends the buyer back.
 */
export { BuyCreditsToggle } from './buy-credits-toggle';
export { CreditPacks, type CreditPacksProps } from './credit-packs';
export { PaymentReturnNotice, paymentNotice } from './payment-return-notice';
export { startPayment } from './start-payment';
