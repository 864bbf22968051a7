import { Messages } from '../../contract/errors';
import { subscriptionReturnUrl } from '../../contract/payment-return-paths';
import { findPlan } from '../../contract/plans';
import type { ApprovalResponse, ChangeSubscriptionRequest } from '../../contract/subscriptions';
import { Conflict, InvalidInput, ProviderError } from '../domain/errors';
import { PaymentProviderUnavailable, PaymentRefused } from '../ports/payments';
import { paypalPlanFor, type SubscriptionDeps } from './steps/subscription-payments';

export interface ChangeSubscriptionDeps extends Pick<SubscriptionDeps, 'subscriptions' | 'subscriptionProvider' | 'log'> {
  appUrl: string;
}

/**
 * Moves the caller's plan to another (PayPal's revise): the buyer approves at PayPal; PayPal bills the new price from
 * the next cycle, and each payment grants the credits of the plan it paid for. PayPal brings the buyer back to the page
 * the change was asked from (`?to=` in the return URL); PayPal's BILLING.SUBSCRIPTION.UPDATED records the change.
 */
export async function changeSubscription(deps: ChangeSubscriptionDeps, owner: string, input: ChangeSubscriptionRequest): Promise<ApprovalResponse> {
  const plan = findPlan(input.planId);
  if (!plan) throw new InvalidInput(Messages.invalidPlan);
  const s = await deps.subscriptions.get(owner);
  if (!s || s.status !== 'active') throw new Conflict(Messages.noSubscription);
  if (s.planId === plan.id) throw new Conflict(Messages.samePlan);
  // The page the change was asked from (else the one the plan was bought on) travels in the return URL.
  const back = subscriptionReturnUrl(deps.appUrl, input.returnPath ?? s.returnPath);
  let approval: ApprovalResponse;
  try {
    approval = await (await deps.subscriptionProvider()).revise(s.id, await paypalPlanFor(deps, plan), back, back);
  } catch (err) {
    if (err instanceof PaymentProviderUnavailable || err instanceof PaymentRefused) {
      deps.log('PayPal subscription revise failed', { owner, id: s.id, plan: plan.id, error: err.message });
      throw new ProviderError(Messages.paymentUnavailable);
    }
    throw err;
  }
  return approval;
}
