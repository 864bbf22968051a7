import { Messages } from '../../contract/errors';
import { findPlan } from '../../contract/plans';
import { DEFAULT_PAYMENT_RETURN_PATH, subscriptionReturnUrl } from '../../contract/payment-return-paths';
import type { ApprovalResponse, CreateSubscriptionRequest } from '../../contract/subscriptions';
import { Conflict, InvalidInput, ProviderError } from '../domain/errors';
import { PaymentProviderUnavailable, PaymentRefused } from '../ports/payments';
import { getOrCreateAccount, type Caller, type GetAccountDeps } from './get-or-create-account';
import { cancelAtPaypal, paypalPlanFor, type SubscriptionDeps } from './steps/subscription-payments';

const BRAND_NAME = 'Framewright';

/** No mailer: subscribing grants nothing (the payments do), so this function never loads SES. */
export interface SubscribeDeps extends Pick<SubscriptionDeps, 'subscriptions' | 'subscriptionProvider' | 'log'>, GetAccountDeps {
  /** The app's public origin: PayPal sends the buyer back to its /api/paypal/subscription-return?to=<returnPath>. */
  appUrl: string;
  newRequestId: () => string;
}

/**
 * Starts a plan: PayPal gets a subscription to the plan tied to the buyer by custom_id, and we record it (pending)
 * before the buyer sees PayPal's approval page, so the return and every webhook find it. One plan at a time: with a
 * plan active or suspended, the answer is 409 (change it or cancel it instead). Credits come with the payments.
 *
 * The new one replaces a pending one, which is cancelled at PayPal. PayPal refuses to cancel one still waiting for
 * approval (SUBSCRIPTION_STATUS_INVALID), so its page can still be approved (another tab, the back button): the first
 * subscription PayPal activates becomes the plan, and any other is refused when it activates, cancelled at PayPal and
 * refunded in full (steps/subscription-payments).
 */
export async function subscribe(deps: SubscribeDeps, caller: Caller, input: CreateSubscriptionRequest): Promise<ApprovalResponse> {
  const plan = findPlan(input.planId);
  if (!plan) throw new InvalidInput(Messages.invalidPlan);
  // The handler's schema already refused a plan without it; a use case called some other way must not sell without it.
  if (input.withdrawalConsent !== true) throw new InvalidInput(Messages.withdrawalConsentRequired);
  await getOrCreateAccount(deps, caller);
  const current = await deps.subscriptions.get(caller.sub);
  if (current && (current.status === 'active' || current.status === 'suspended')) throw new Conflict(Messages.alreadySubscribed);

  const returnPath = input.returnPath ?? DEFAULT_PAYMENT_RETURN_PATH;
  // The page to come back to travels in the URL, so the public return needs nothing of the record (and tells nothing).
  const back = subscriptionReturnUrl(deps.appUrl, returnPath);
  let created;
  try {
    const paypalPlanId = await paypalPlanFor(deps, plan);
    created = await (await deps.subscriptionProvider()).createSubscription({
      requestId: deps.newRequestId(),
      paypalPlanId,
      customId: caller.sub,
      // Both come back to one route, which only sends the browser on to the page: the page asks GET /api/subscription.
      returnUrl: back,
      cancelUrl: back,
      brandName: BRAND_NAME,
    });
  } catch (err) {
    if (err instanceof PaymentProviderUnavailable || err instanceof PaymentRefused) {
      deps.log('PayPal subscription creation failed', { owner: caller.sub, plan: plan.id, error: err.message });
      throw new ProviderError(Messages.paymentUnavailable);
    }
    throw err;
  }
  if (!created.approvalUrl) {
    deps.log('PayPal subscription has no approval link', { owner: caller.sub, id: created.id, status: created.status });
    throw new ProviderError(Messages.paymentUnavailable);
  }
  const at = deps.now().toISOString();
  const started = await deps.subscriptions.start({
    owner: caller.sub,
    id: created.id,
    planId: plan.id,
    status: 'pending',
    createdAt: at,
    statusAt: at,
    returnPath,
    withdrawalConsentAt: at,
  });
  // Another tab's subscription became active in between: this one is never shown to the buyer.
  if (!started) throw new Conflict(Messages.alreadySubscribed);
  if (current?.status === 'pending' && current.id !== created.id) {
    try {
      await cancelAtPaypal(await deps.subscriptionProvider(), current.id, 'Replaced by a newer subscription of the same account');
    } catch (err) {
      // Not cancelled now: should it be approved and activated anyway, it is refused then.
      if (!(err instanceof PaymentProviderUnavailable || err instanceof PaymentRefused)) throw err;
      deps.log('An earlier pending subscription was not cancelled at PayPal', { owner: caller.sub, id: current.id, error: err.message });
    }
  }
  return { approvalUrl: created.approvalUrl };
}
