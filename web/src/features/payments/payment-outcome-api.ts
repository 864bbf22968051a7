import type { PaymentOutcomeResponse, PaymentReturnParams } from '../../../../contract/payments';
import { api } from '../../lib/api-client';
import { ensureConfig } from '../../lib/config-state';

/**
 * What the server says about the order a PayPal return names (GET /api/payment-outcome). A return without an
 * order (an order we never had) is an error; a return whose order the server does not know, or cannot answer
 * about, shows nothing (undefined): the URL alone proves nothing.
 */
export async function fetchPaymentOutcome(params: PaymentReturnParams, signal?: AbortSignal): Promise<PaymentOutcomeResponse | undefined> {
  if (!params.order) return params.payment === 'error' ? { outcome: 'error' } : undefined;
  try {
    // The landing page renders before /config.json is read: the API's base URL comes from it.
    await ensureConfig();
    return await api.paymentOutcome({ query: { order: params.order }, signal });
  } catch {
    return undefined;
  }
}
