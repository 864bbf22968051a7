import { Messages } from '../../contract/errors';
import type { SubscriptionView } from '../../contract/subscriptions';
import { Conflict, ProviderError } from '../domain/errors';
import { PaymentProviderUnavailable, PaymentRefused } from '../ports/payments';
import { getSubscription } from './get-subscription';
import { syncSubscription, type SubscriptionDeps } from './steps/subscription-payments';

/**
 * Cancels the caller's plan at PayPal: no further payments; what was granted stays (plan credits keep their rollover
 * until spent). PayPal's answer that it is not cancellable any more (cancelled at PayPal meanwhile) is read back.
 */
export async function cancelSubscription(deps: SubscriptionDeps, owner: string): Promise<SubscriptionView> {
  const s = await deps.subscriptions.get(owner);
  if (!s || (s.status !== 'active' && s.status !== 'suspended')) throw new Conflict(Messages.noSubscription);
  try {
    await (await deps.subscriptionProvider()).cancel(s.id, 'Cancelled by the subscriber in My Account');
  } catch (err) {
    if (err instanceof PaymentRefused && err.issue === 'SUBSCRIPTION_STATUS_INVALID') {
      // Already cancelled at PayPal (or a retried cancel that landed): PayPal's state is the answer.
    } else if (err instanceof PaymentProviderUnavailable || err instanceof PaymentRefused) {
      deps.log('PayPal subscription cancel failed', { owner, id: s.id, error: err.message });
      throw new ProviderError(Messages.paymentUnavailable);
    } else throw err;
  }
  await syncSubscription(deps, s.id);
  return getSubscription(deps, owner);
}
