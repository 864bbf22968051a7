/**
 * The plans' arithmetic (contract/plans.ts, docs/pricing.md): each plan sells credits cheaper than the best pack, and
 * what PayPal leaves of every plan and pack pays, per credit, more than Replicate charges per credit on every model and
 * option we offer. A provider price change goes into REPLICATE_COST_CENTS first; this test then names what would lose money.
 */
import { CREDIT_PACKS } from '../../contract/packs';
import { BEST_PACK_CENTS_PER_CREDIT, PLANS, REPLICATE_COST_CENTS, netOfPaypalFee, planCreditsAfterGrant } from '../../contract/plans';
import { MODELS, everyCombination, type ResolvedOptions } from '../../contract/models';
import { planMove } from '../../lambdas/domain/money-rules';

/** Entries that run a model of their own (variations run their source's entry, and are priced by it). */
const offered = MODELS.filter((m) => !m.upcoming && m.models.length > 0);

/** Every model option a user can buy: its credits and what Replicate charges for it. */
const runs = offered.flatMap((m) =>
  everyCombination(m)
    .map((o) => o as ResolvedOptions)
    .filter((o) => !m.unavailable?.(o))
    .map((o) => ({ what: `${m.slug} ${JSON.stringify(o)}`, credits: m.price(o), costCents: REPLICATE_COST_CENTS[m.slug]?.(o) ?? Number.NaN })),
);

describe('plan pricing', () => {
  it('every offered model has a Replicate cost', () => {
    for (const m of offered) expect(REPLICATE_COST_CENTS[m.slug]).toBeDefined();
    expect(runs.length).toBeGreaterThan(10);
  });

  it.each(PLANS.map((p) => [p.id, p] as const))('%s is cheaper per credit than the best pack', (_id, plan) => {
    expect(plan.cents / plan.credits).toBeLessThan(BEST_PACK_CENTS_PER_CREDIT);
  });

  it.each([...PLANS.map((p) => [p.id, p.cents, p.credits] as const), ...CREDIT_PACKS.map((p) => [p.id, p.cents, p.credits] as const)])(
    '%s leaves a margin on every model and option after PayPal’s fee',
    (_id, cents, credits) => {
      const perCredit = netOfPaypalFee(cents) / credits;
      const losing = runs.filter((r) => perCredit * r.credits <= r.costCents).map((r) => r.what);
      expect(losing).toEqual([]);
    },
  );

  it('plan credits roll over at most one month’s grant', () => {
    expect(planCreditsAfterGrant(0, 120)).toBe(120);
    expect(planCreditsAfterGrant(50, 120)).toBe(170);
    expect(planCreditsAfterGrant(240, 120)).toBe(240);
  });
});

describe('two kinds of credits in one change (planMove)', () => {
  it('a charge spends plan credits first; its refund gives them back to the plan', () => {
    expect(planMove({ delta: -5 }, 3, 8)).toEqual({ after: 0, plan: -3, expired: 0 });
    expect(planMove({ delta: -5 }, 10, 10)).toEqual({ after: 5, plan: -5, expired: 0 });
    expect(planMove({ delta: 5, plan: { kind: 'back', back: 3 } }, 0, 0)).toEqual({ after: 3, plan: 3, expired: 0 });
    expect(planMove({ delta: 5 }, 4, 4)).toEqual({ after: 4, plan: 0, expired: 0 });
  });

  it('a grant rolls over one month at most; a take-back of a plan payment takes plan credits first', () => {
    expect(planMove({ delta: 120, plan: { kind: 'grant', month: 120 } }, 200, 200)).toEqual({ after: 240, plan: 120, expired: 80 });
    expect(planMove({ delta: 360, plan: { kind: 'grant', month: 120 } }, 100, 100)).toEqual({ after: 460, plan: 360, expired: 0 });
    expect(planMove({ delta: -120, allowNegative: true, plan: { kind: 'first' } }, 50, 80)).toEqual({ after: 0, plan: -50, expired: 0 });
    // A pack's refund takes the pack's credits; plan credits only where those were spent (they never exceed the balance).
    expect(planMove({ delta: -72, allowNegative: true }, 50, 122)).toEqual({ after: 50, plan: 0, expired: 0 });
    expect(planMove({ delta: -72, allowNegative: true }, 120, 186)).toEqual({ after: 114, plan: -6, expired: 0 });
    expect(planMove({ delta: -72, allowNegative: true }, 30, 40)).toEqual({ after: 0, plan: -30, expired: 0 });
    // A grant to a balance below zero (a pack taken back after it was spent) pays that first.
    expect(planMove({ delta: 120, plan: { kind: 'grant', month: 120 } }, 0, -6)).toEqual({ after: 114, plan: 114, expired: 0 });
  });
});
