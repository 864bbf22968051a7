import type { CreatePaymentResponse } from '../../../../contract/payments';
import type { CreditPack } from '../../../../contract/packs';
import { api } from '../../lib/api-client';

/**
 * Creates the PayPal order on the server for one pack and sends the browser to PayPal's approval page.
 * The server prices the pack from contract/ and credits the account only after it captures the payment.
 */
export async function startPayment(pack: CreditPack): Promise<void> {
  const { paymentUrl } = await api.post<CreatePaymentResponse>('/api/create-paypal-payment', { amount: pack.amount, credits: pack.credits });
  if (!paymentUrl) throw new Error('No payment link returned from server.');
  window.location.assign(paymentUrl);
}
