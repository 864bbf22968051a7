import { DEFAULT_PAYMENT_RETURN_PATH, type PaymentReturnPath } from '../../contract/payments';
import type { SubscriptionOutcome } from '../../contract/subscriptions';
import { PaymentProviderUnavailable, PaymentRefused } from '../ports/payments';
import { syncSubscription, type SubscriptionDeps } from './steps/subscription-payments';

/**
 * PayPal sends the buyer back (approved, or cancelled: one route for both): read the subscription at PayPal, record it,
 * grant what PayPal already took, and tell the page where the buyer came from. While PayPal cannot be reached the page
 * says pending; the webhooks settle it.
 */
export async function settleSubscriptionReturn(deps: SubscriptionDeps, id: string): Promise<{ outcome: SubscriptionOutcome; returnPath: PaymentReturnPath }> {
  const owner = await deps.subscriptions.ownerOf(id);
  const mine = owner ? await deps.subscriptions.get(owner) : undefined;
  const returnPath = mine?.id === id ? mine.returnPath : DEFAULT_PAYMENT_RETURN_PATH;
  if (!owner) return { outcome: 'error', returnPath };
  try {
    const s = await syncSubscription(deps, id);
    if (!s || s.id !== id) return { outcome: 'error', returnPath };
    if (s.status === 'active') return { outcome: 'success', returnPath };
    if (s.status === 'pending') return { outcome: 'cancel', returnPath };
    return { outcome: 'error', returnPath };
  } catch (err) {
    if (err instanceof PaymentProviderUnavailable || err instanceof PaymentRefused) {
      deps.log('Subscription return could not read PayPal', { id, error: err.message });
      return { outcome: 'pending', returnPath };
    }
    throw err;
  }
}
