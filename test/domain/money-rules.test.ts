/**
 * The money rules (lambdas/domain/money-rules.ts), decided on plain values: who may be charged and in which order the
 * refusals come, what a change writes to the ledger, plan credits spent first and given back, the rollover cap, and
 * the amounts of a job's refund and a purchase's take-back. test/contract holds the stores that follow them.
 */
import { creditsFor, decideCreditChange, isCharge, jobCharge, jobRefund, purchaseCredit, saleGrant, takeBackChange, withinCap, type AccountMoney, salePaysFor, jobPartRefund, batchFailedCredits } from '../../lambdas/domain/money-rules';

const account = (a: Partial<AccountMoney> = {}): AccountMoney => ({ credits: 10, planCredits: 0, activeJobs: 0, deleting: false, ...a });
const charge = (cost: number, cap?: number) => ({ ...jobCharge({ cost, kind: 'image' }), ...(cap === undefined ? {} : { activeJobs: { add: 1 as const, cap } }) });

describe('charge admission', () => {
  it('a charge the balance pays is made: the balance after, one ledger row', () => {
    expect(decideCreditChange(account(), charge(4))).toEqual({ ok: true, balance: 6, planCredits: 0, planSpent: 0, rows: [{ reason: 'image', delta: -4, plan: 0, balance: 6 }] });
    expect(decideCreditChange(account(), charge(10))).toMatchObject({ ok: true, balance: 0 });
  });

  it('a charge below zero is refused with the balance; a balance already below zero pays for nothing', () => {
    expect(decideCreditChange(account(), charge(11))).toEqual({ ok: false, why: 'insufficient', balance: 10 });
    expect(decideCreditChange(account({ credits: -3 }), charge(1))).toEqual({ ok: false, why: 'insufficient', balance: -3 });
  });

  it('an account being deleted, or gone, is not charged; something given back to a gone account has nowhere to land', () => {
    expect(decideCreditChange(account({ deleting: true }), charge(1))).toEqual({ ok: false, why: 'closing' });
    expect(decideCreditChange(undefined, charge(1))).toEqual({ ok: false, why: 'closing' });
    expect(decideCreditChange(undefined, { ...jobRefund({ cost: 1 }) })).toEqual({ ok: false, why: 'no-account' });
    // The mark stops charges only: a refund and a take-back still land.
    expect(decideCreditChange(account({ deleting: true }), jobRefund({ cost: 2 }))).toMatchObject({ ok: true, balance: 12 });
    expect(decideCreditChange(account({ deleting: true }), takeBackChange({}, { creditsTakenBack: 5, reason: 'chargeback' }))).toMatchObject({ ok: true, balance: 5 });
  });

  it('a start at the running-jobs cap is refused; below it, admitted', () => {
    expect(decideCreditChange(account({ activeJobs: 4 }), charge(1, 4))).toEqual({ ok: false, why: 'busy', active: 4 });
    expect(decideCreditChange(account({ activeJobs: 3 }), charge(1, 4))).toMatchObject({ ok: true });
    expect(withinCap(199, 200)).toBe(true);
    expect(withinCap(200, 200)).toBe(false);
  });

  it('refusals come in one order: closing, busy, then the balance', () => {
    expect(decideCreditChange(account({ deleting: true, activeJobs: 4, credits: 0 }), charge(1, 4))).toMatchObject({ why: 'closing' });
    expect(decideCreditChange(account({ activeJobs: 4, credits: 0 }), charge(1, 4))).toMatchObject({ why: 'busy' });
  });

  it('only a charge is refused for the balance: a refund lands below zero, a take-back may go below it', () => {
    expect(isCharge(jobCharge({ cost: 1, kind: 'video' }))).toBe(true);
    expect(isCharge(jobRefund({ cost: 1 }))).toBe(false);
    expect(isCharge(takeBackChange({}, { creditsTakenBack: 1, reason: 'purchase-refund' }))).toBe(false);
    expect(decideCreditChange(account({ credits: -20 }), jobRefund({ cost: 5 }))).toMatchObject({ ok: true, balance: -15 });
    expect(decideCreditChange(account({ credits: 5 }), takeBackChange({}, { creditsTakenBack: 20, reason: 'purchase-refund' }))).toMatchObject({ ok: true, balance: -15 });
  });
});

describe('plan credits', () => {
  it('a charge spends plan credits first and says how many (the job keeps them as planCost)', () => {
    expect(decideCreditChange(account({ credits: 40, planCredits: 30 }), charge(35))).toEqual({
      ok: true,
      balance: 5,
      planCredits: 0,
      planSpent: 30,
      rows: [{ reason: 'image', delta: -35, plan: -30, balance: 5 }],
    });
  });

  it("a job's refund is its whole cost, the plan credits it spent back as plan credits", () => {
    expect(jobRefund({ cost: 35, planCost: 30 })).toEqual({ delta: 35, reason: 'refund', plan: { kind: 'back', back: 30 } });
    expect(jobRefund({ cost: 3 })).toEqual({ delta: 3, reason: 'refund', plan: { kind: 'back', back: 0 } });
    expect(decideCreditChange(account({ credits: 5, planCredits: 0 }), jobRefund({ cost: 35, planCost: 30 }))).toMatchObject({ ok: true, balance: 40, planCredits: 30, planSpent: 0 });
  });

  it('a grant rolls over one month at most: the rest expires on its own row, written first', () => {
    expect(decideCreditChange(account({ credits: 210, planCredits: 200 }), saleGrant({ credits: 120, monthCredits: 120 }))).toEqual({
      ok: true,
      balance: 250,
      planCredits: 240,
      planSpent: 0,
      rows: [
        { reason: 'plan-expiry', delta: -80, plan: -80, balance: 130 },
        { reason: 'plan', delta: 120, plan: 120, month: 120, balance: 250 },
      ],
    });
    // A payment of three months (what was outstanding): the grant is three months, the rollover still one.
    expect(decideCreditChange(account({ credits: 210, planCredits: 200 }), saleGrant({ credits: 360, monthCredits: 120 }))).toMatchObject({ planCredits: 480, balance: 490 });
    expect(decideCreditChange(account({ credits: 10, planCredits: 0 }), saleGrant({ credits: 120, monthCredits: 120 }))).toMatchObject({ planCredits: 120, rows: [{ reason: 'plan' }] });
  });

  it("a plan payment's take-back takes plan credits first; a pack's leaves them", () => {
    const plan = takeBackChange({ subscriptionId: 'I-1' }, { creditsTakenBack: 120, reason: 'purchase-refund' });
    expect(decideCreditChange(account({ credits: 60, planCredits: 50 }), plan)).toMatchObject({ balance: -60, planCredits: 0, rows: [{ plan: -50 }] });
    const pack = takeBackChange({}, { creditsTakenBack: 72, reason: 'purchase-refund' });
    expect(decideCreditChange(account({ credits: 122, planCredits: 50 }), pack)).toMatchObject({ balance: 50, planCredits: 50, rows: [{ plan: 0 }] });
    // Plan credits never exceed the balance: a pack taken back after its credits were spent takes the plan credits it no
    // longer covers, and a grant to a balance below zero pays that first (money simulation, seeds 1 and 2).
    expect(decideCreditChange(account({ credits: 80, planCredits: 50 }), pack)).toMatchObject({ balance: 8, planCredits: 8, rows: [{ plan: -42 }] });
    expect(decideCreditChange(account({ credits: -6, planCredits: 0 }), saleGrant({ credits: 120, monthCredits: 120 }))).toMatchObject({ balance: 114, planCredits: 114, rows: [{ plan: 114 }] });
  });
});

describe('amounts', () => {
  it('a take-back takes what its new total adds to the earlier ones', () => {
    expect(takeBackChange({ creditsTakenBack: 21 }, { creditsTakenBack: 72, reason: 'purchase-refund' })).toEqual({ delta: -51, reason: 'purchase-refund', allowNegative: true });
    expect(takeBackChange({ subscriptionId: 'I-1' }, { creditsTakenBack: 5, reason: 'chargeback' })).toEqual({ delta: -5, reason: 'chargeback', allowNegative: true, plan: { kind: 'first' } });
    expect(creditsFor(72, 350, 699)).toBe(36);
  });

  it('a purchase credits its pack, a charge takes its cost', () => {
    expect(purchaseCredit({ credits: 72 })).toEqual({ delta: 72, reason: 'purchase' });
    expect(jobCharge({ cost: 12, kind: 'video' })).toEqual({ delta: -12, reason: 'video' });
  });
});

describe('what a payment paid for, and a batch part refund', () => {
  it("a payment of months left outstanding on the earlier plan is granted at that plan, after a change too", () => {
    expect(salePaysFor({ value: '19.98', currency: 'USD' }, 'plan-starter')).toMatchObject({ plan: { id: 'plan-starter' }, months: 2 });
    // The owner's plan is now another one: the payment is still two months of the plan whose price it is a multiple of.
    expect(salePaysFor({ value: '19.98', currency: 'USD' }, 'plan-creator')).toMatchObject({ plan: { id: 'plan-starter' }, months: 2 });
    expect(salePaysFor({ value: '9.98', currency: 'USD' }, 'plan-starter')).toBeUndefined();
    expect(salePaysFor({ value: '9.99', currency: 'EUR' }, 'plan-starter')).toBeUndefined();
  });

  it("a batch's failed parts come back at their price, plan credits only beyond what the kept images spent", () => {
    expect(batchFailedCredits({ cost: 4, batch: [{}, { failed: 'lost' }, {}, {}] })).toBe(1);
    expect(batchFailedCredits({ cost: 4, batch: [{}, {}] })).toBe(0);
    expect(jobPartRefund({ cost: 4, planCost: 4 }, 1)).toEqual({ delta: 1, reason: 'refund', plan: { kind: 'back', back: 1 } });
    expect(jobPartRefund({ cost: 4, planCost: 2 }, 1)).toEqual({ delta: 1, reason: 'refund', plan: { kind: 'back', back: 0 } });
  });
});
