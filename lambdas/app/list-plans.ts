import { CURRENCY } from '../../contract/packs';
import { PLANS } from '../../contract/plans';
import type { PlansResponse } from '../../contract/subscriptions';

/** The plans of the contract, as GET /api/plans shows them (public: the pricing page lists them). */
export function listPlans(): PlansResponse {
  return { plans: PLANS.map((p) => ({ id: p.id, name: p.name, price: p.price, currency: CURRENCY, credits: p.credits })) };
}
