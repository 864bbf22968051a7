/**
 * The rollover cap of a plan grant applied as of the sale's date, not the grant's (a month granted late: its webhook
 * lost, granted hours or days later by the plans' reconciler). A grant made on time keeps at most one month's grant of
 * the plan credits left (contract/plans.ts `planCreditsAfterGrant`). Granted late, the plan credits held now are not
 * those held at the sale: a later month may have been granted (and capped) meanwhile, and jobs charged meanwhile took
 * purchased credits that the missing month's would have spared. So the grant is placed at the sale's date and the plan
 * credits replayed from there over the ledger rows written since (their `plan` parts): each later grant caps again as it
 * would have, each charge takes plan credits first as it would have, and what a charge would have taken from the plan
 * credits instead of purchased ones is given back (as plan credits: the total is what it would have been, the split
 * of a few credits may differ). Refunds and take-backs move plan credits as they did.
 */
import { planCreditsAfterGrant } from '../../contract/plans';

/** A ledger row written after the sale, oldest first: its reason, its delta, its plan part; a grant's month cap. */
export interface LaterLedgerRow {
  reason: string;
  delta: number;
  plan?: number;
  /** A plan grant's one-month cap (absent on rows from before it was recorded: the grant's delta is used). */
  month?: number;
}

/** Charges: the only rows that spend plan credits first because plan credits were there. */
const CHARGES = new Set(['image', 'video']);

/**
 * The plan credits after a grant of `delta` (capped at `month`) dated before the rows `later`, given the plan credits
 * held now. Never more than held now plus the grant (a cap only takes away), never below zero. Without later rows:
 * the on-time rule.
 */
export function planAfterLateGrant(heldNow: number, grant: { delta: number; month: number }, later: readonly LaterLedgerRow[]): number {
  const capped = (held: number, month: number, delta: number) => planCreditsAfterGrant(held, month) - month + delta;
  // What was held at the sale: the plan parts written since taken off (expiries included: they are replayed).
  const atSale = later.reduce((held, r) => held - (r.plan ?? 0), heldNow);
  let p = capped(atSale, grant.month, grant.delta);
  let spared = 0;
  for (const r of later) {
    if (r.reason === 'plan-expiry') continue;
    if (r.reason === 'plan') p = capped(p, r.month ?? r.delta, r.delta);
    else if (CHARGES.has(r.reason) && r.delta < 0) {
      const took = Math.min(Math.max(p, 0), -r.delta);
      spared += took - -(r.plan ?? 0);
      p -= took;
    } else p += r.plan ?? 0;
  }
  return Math.min(Math.max(p + spared, 0), Math.max(heldNow, 0) + grant.delta);
}
