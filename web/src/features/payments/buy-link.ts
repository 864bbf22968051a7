import { isPaymentReturnPath, type PaymentReturnPathValue } from '../../../../contract/payment-return-paths';
import { CREDIT_PACKS, type CreditPack } from '../../../../contract/packs';
import { PLANS, type Plan } from '../../../../contract/plans';

/** The app page that buys one pack: after sign-in if needed, straight to PayPal (buy-page.tsx). */
export const BUY_PATH = '/buy';

/**
 * The address of buying `pack` from the page `from` (where PayPal brings the buyer back). A plain address with a
 * query, so it works as a link before a prerendered page is hydrated, and survives the sign-in redirect.
 */
export function buyLink(pack: Pick<CreditPack, 'id'>, from: PaymentReturnPathValue): string {
  return `${BUY_PATH}?${new URLSearchParams({ pack: pack.id, from })}`;
}

/** The address of subscribing to a plan from the page `from` (after sign-in if needed, straight to PayPal). */
export function subscribeLink(plan: Pick<Plan, 'id'>, from: PaymentReturnPathValue): string {
  return `${BUY_PATH}?${new URLSearchParams({ plan: plan.id, from })}`;
}

/** What a buy address asks for: the pack (undefined if no pack has that id) and the page to come back to. */
export function readBuyLink(search: URLSearchParams): { pack?: CreditPack; plan?: Plan; from?: PaymentReturnPathValue } {
  const from = search.get('from');
  return {
    pack: CREDIT_PACKS.find((p) => p.id === search.get('pack')),
    plan: PLANS.find((p) => p.id === search.get('plan')),
    from: isPaymentReturnPath(from) ? from : undefined,
  };
}
