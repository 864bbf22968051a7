/**
 * A plan month granted late holds what it would have held on time (domain/plan-rollover.ts): random histories of
 * grants, charges (plan credits first) and purchases are played twice, once with a month granted on time and once
 * with it granted at the end (its webhook lost, the reconciler finding it later), through the same `planMove` the
 * DynamoDB adapter and the fakes use; the late account must end with the on-time account's balance (or, after a
 * payment of several months, no less).
 */
import fc from 'fast-check';
import { planMove } from '../../lambdas/domain/money-rules';
import { planAfterLateGrant, type LaterLedgerRow } from '../../lambdas/domain/plan-rollover';

type Step = { kind: 'grant'; months: number } | { kind: 'charge'; cost: number } | { kind: 'buy'; credits: number };

const MONTH = 120;

/** An account replayed through planMove, writing ledger rows as the adapter does (a grant's expiry on its own row). */
function play(steps: readonly Step[], lateAt?: number) {
  let credits = 0;
  let plan = 0;
  const ledger: LaterLedgerRow[] = [];
  let lateFrom = -1;
  steps.forEach((s, i) => {
    if (i === lateAt) {
      lateFrom = ledger.length;
      return;
    }
    if (s.kind === 'grant') {
      const m = planMove({ delta: s.months * MONTH, plan: { kind: 'grant', month: MONTH } }, plan, credits);
      if (m.expired) ledger.push({ reason: 'plan-expiry', delta: -m.expired, plan: -m.expired });
      ledger.push({ reason: 'plan', delta: s.months * MONTH, plan: s.months * MONTH, month: MONTH });
      credits += s.months * MONTH - m.expired;
      plan = m.after;
    } else if (s.kind === 'buy') {
      ledger.push({ reason: 'purchase', delta: s.credits });
      credits += s.credits;
    } else if (credits >= s.cost) {
      const m = planMove({ delta: -s.cost }, plan, credits);
      ledger.push({ reason: 'image', delta: -s.cost, plan: m.plan });
      credits -= s.cost;
      plan = m.after;
    }
  });
  return { credits, plan, later: ledger.slice(lateFrom) };
}

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('grant' as const), months: fc.integer({ min: 1, max: 3 }) }),
  fc.record({ kind: fc.constant('charge' as const), cost: fc.integer({ min: 1, max: 300 }) }),
  fc.record({ kind: fc.constant('buy' as const), credits: fc.constantFrom(72, 400, 1000) }),
);

describe('planAfterLateGrant', () => {
  it('without later rows it is the on-time rule: at most a month rolls over', () => {
    expect(planAfterLateGrant(50, { delta: MONTH, month: MONTH }, [])).toBe(50 + MONTH);
    expect(planAfterLateGrant(2 * MONTH, { delta: MONTH, month: MONTH }, [])).toBe(2 * MONTH);
    expect(planAfterLateGrant(2 * MONTH, { delta: 3 * MONTH, month: MONTH }, [])).toBe(4 * MONTH);
  });

  it('a later month granted first: the late one is capped as the later one would have capped it', () => {
    // Held 120; the next month granted on time (240); 100 spent; the missing month granted now.
    const later = [
      { reason: 'plan', delta: MONTH, plan: MONTH, month: MONTH },
      { reason: 'image', delta: -100, plan: -100 },
    ];
    // On time: 120 -> 240 (month) -> 240 (next month, 120 expired) -> 140.
    expect(planAfterLateGrant(2 * MONTH - 100, { delta: MONTH, month: MONTH }, later)).toBe(140);
  });

  it('late or on time, the same balance (fast-check over histories of grants, charges and purchases)', () => {
    fc.assert(
      fc.property(fc.array(step, { minLength: 1, maxLength: 12 }), fc.nat(), fc.integer({ min: 1, max: 3 }), (rest, at, months) => {
        const steps: Step[] = [{ kind: 'grant', months: 1 }, ...rest];
        const i = 1 + (at % steps.length);
        steps.splice(i, 0, { kind: 'grant', months });
        const onTime = play(steps);
        const late = play(steps, i);
        // A charge one account could pay and the other not (a grant can take more than it gives, when what rolled over
        // was over the cap): the histories differ, nothing to compare.
        const paidAlike = steps.every((s, k) => s.kind !== 'charge' || k < i || (play(steps.slice(0, k), i).credits >= s.cost) === (play(steps.slice(0, k)).credits >= s.cost));
        fc.pre(paidAlike);
        const after = planAfterLateGrant(late.plan, { delta: months * MONTH, month: MONTH }, late.later);
        const expired = late.plan + months * MONTH - after;
        expect(expired).toBeGreaterThanOrEqual(0);
        const lateTotal = late.credits + months * MONTH - expired;
        // Exactly the on-time balance; more only after a payment of several months (an outstanding balance collected),
        // whose grant can expire more than it gives: a charge on time would then have taken a few purchased credits
        // more, which the late grant does not take back (it never goes below the plan credits it replays).
        if (steps.some((s) => s.kind === 'grant' && s.months > 1)) expect(lateTotal).toBeGreaterThanOrEqual(onTime.credits);
        else expect(lateTotal).toBe(onTime.credits);
      }),
      { seed: 36, numRuns: 500 },
    );
  });
});
