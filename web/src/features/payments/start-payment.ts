import type { CreatePaymentRequest, PaymentReturnPath } from '../../../../contract/payments';
import type { CreditPack } from '../../../../contract/packs';
import { api } from '../../lib/api-client';
import { paymentReturnPathFor } from './return-path';

/**
 * Creates the PayPal order on the server for one pack and sends the browser to PayPal's approval page. Called only once
 * the buyer ticked checkout's withdrawal consent (WithdrawalConsent), which the order carries.
 * The server prices the pack from contract/ and credits the account only after it captures the payment.
 * PayPal's return comes back to `returnPath`: by default the page the buyer is on, when the server allows it.
 */
export async function startPayment(
  pack: CreditPack,
  returnPath: PaymentReturnPath | undefined = paymentReturnPathFor(window.location.pathname),
  go: (url: string) => void = (url) => window.location.assign(url),
): Promise<void> {
  const body: CreatePaymentRequest = { withdrawalConsent: true, amount: pack.amount, credits: pack.credits, ...(returnPath ? { returnPath } : {}) };
  const { paymentUrl } = await api.createPaypalPayment({ body });
  if (!paymentUrl) throw new Error('No payment link returned from server.');
  go(paymentUrl);
}
