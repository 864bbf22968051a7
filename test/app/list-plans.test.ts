/** The plans of the contract as GET /api/plans lists them (the pricing page shows them beside the packs). */
import { CURRENCY } from '../../contract/packs';
import { PLANS } from '../../contract/plans';
import { PlansResponse } from '../../contract/subscriptions';
import { listPlans } from '../../lambdas/app/list-plans';

describe('listPlans', () => {
  it('lists every plan with its id, name, monthly price and credits, in the contract shape', () => {
    const answer = listPlans();
    expect(PlansResponse.parse(answer)).toEqual(answer);
    expect(answer.plans).toEqual(PLANS.map((p) => ({ id: p.id, name: p.name, price: p.price, currency: CURRENCY, credits: p.credits })));
  });
});
