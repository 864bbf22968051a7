import { Messages } from '../../contract/errors';
import { CURRENCY, findPack } from '../../contract/packs';
import { DEFAULT_PAYMENT_RETURN_PATH, isPaymentReturnPath, type CreatePaymentRequest, type CreatePaymentResponse } from '../../contract/payments';
import { PaymentProviderUnavailable, PaymentRefused, type OrderStore, type PaymentProvider } from '../ports/payments';
import { InvalidInput, ProviderError } from '../domain/errors';
import { getOrCreateAccount, type Caller, type GetAccountDeps } from './get-or-create-account';

const BRAND_NAME = 'Framewright';

export interface CreatePaymentDeps extends GetAccountDeps {
  orders: OrderStore;
  provider: () => Promise<PaymentProvider>;
  /** The app's public origin: PayPal sends the buyer back to its /api/paypal/return and /api/paypal/cancel. */
  appUrl: string;
  now: () => Date;
  /** A fresh PayPal-Request-Id. */
  newRequestId: () => string;
  log: (message: string, details: Record<string, unknown>) => void;
}

/**
 * Starts buying a pack: the {amount, credits} pair must be one of contract/packs (the price always comes from
 * there, never from the caller), PayPal gets an order tied to the buyer by custom_id, and we store the order
 * before the buyer can see PayPal's approval page, so every return finds it. The order keeps the page to send the
 * buyer back to (already checked against the contract's allowlist), so the return needs nothing from the query.
 */
export async function createPayment(deps: CreatePaymentDeps, caller: Caller, input: CreatePaymentRequest): Promise<CreatePaymentResponse> {
  const owner = caller.sub;
  const pack = findPack(input.amount, input.credits);
  if (!pack) throw new InvalidInput(Messages.invalidPack);
  // The handler's schema already refused an order without it; a use case called some other way must not sell without it.
  if (input.withdrawalConsent !== true) throw new InvalidInput(Messages.withdrawalConsentRequired);
  // The handler's schema already checked it; a use case called some other way must not open a redirect either.
  if (input.returnPath !== undefined && !isPaymentReturnPath(input.returnPath)) throw new InvalidInput(Messages.invalidReturnPath);

  // The account must exist before the buyer pays: the credits go onto it.
  await getOrCreateAccount(deps, caller);

  const base = deps.appUrl.replace(/\/+$/, '');
  let created;
  try {
    const provider = await deps.provider();
    created = await provider.createOrder({
      requestId: deps.newRequestId(),
      amount: { currency: CURRENCY, value: pack.amount },
      customId: owner,
      referenceId: pack.id,
      description: `${BRAND_NAME}: ${pack.credits} credits`,
      itemName: `${pack.credits} credits (about ${pack.basicVideos} basic videos)`,
      returnUrl: `${base}/api/paypal/return`,
      cancelUrl: `${base}/api/paypal/cancel`,
      brandName: BRAND_NAME,
    });
  } catch (err) {
    if (err instanceof PaymentProviderUnavailable || err instanceof PaymentRefused) {
      // A refusal here is our request's fault, not the buyer's: log it and tell the buyer to try later.
      deps.log('PayPal order creation failed', { owner, pack: pack.id, error: err.message });
      throw new ProviderError(Messages.paymentUnavailable);
    }
    throw err;
  }
  if (!created.approvalUrl) {
    deps.log('PayPal order has no approval link', { owner, orderId: created.id, status: created.status });
    throw new ProviderError(Messages.paymentUnavailable);
  }

  const createdAt = deps.now().toISOString();
  await deps.orders.create({
    id: created.id,
    owner,
    packId: pack.id,
    credits: pack.credits,
    amount: pack.amount,
    currency: CURRENCY,
    status: 'created',
    createdAt,
    statusAt: createdAt,
    approvalUrl: created.approvalUrl,
    returnPath: input.returnPath ?? DEFAULT_PAYMENT_RETURN_PATH,
    // Given with this request (the schema refuses one without it), before PayPal could supply anything.
    withdrawalConsentAt: createdAt,
  });
  return { paymentUrl: created.approvalUrl, orderId: created.id };
}
