/**
 * Monthly plans (PayPal Subscriptions), beside the credit packs of ./packs. A plan's credits are granted on each
 * completed billing payment; unused plan credits roll over at most one month's grant and are spent before pack credits.
 *
 * What a plan must satisfy (test/domain/plans.test.ts holds it, docs/pricing.md shows the arithmetic):
 * - each is cheaper per credit than the best pack;
 * - what PayPal leaves us of a plan's price (after its fee) pays, per credit, more than Replicate charges per credit on
 *   every model and option we offer, at the prices below. A provider price change is made here first, and the test
 *   then names the plan (or pack) that would lose money.
 */
import { MODELS, type ResolvedOptions } from './models';
import { CREDIT_PACKS } from './packs';

export interface Plan {
  /** Ours, stable: `GET /api/plans`, `POST /api/subscriptions {planId}`. */
  id: string;
  name: string;
  /** Credits granted on each completed monthly payment. */
  credits: number;
  /** Monthly price in USD as PayPal expects it, e.g. "9.99". */
  price: string;
  /** The same in cents, for arithmetic. */
  cents: number;
}

export const PLANS: readonly Plan[] = [
  { id: 'plan-starter', name: 'Starter', credits: 120, price: '9.99', cents: 999 },
  { id: 'plan-creator', name: 'Creator', credits: 260, price: '19.99', cents: 1999 },
  { id: 'plan-studio', name: 'Studio', credits: 540, price: '39.99', cents: 3999 },
];

export function findPlan(id: string): Plan | undefined {
  return PLANS.find((p) => p.id === id);
}

/**
 * How many plan credits an account holds after a renewal: what was left rolls over up to one month's grant, and
 * the new grant is added. (Leonardo rolls over three months; one month keeps a plan's liability at two grants.)
 */
export function planCreditsAfterGrant(left: number, grant: number): number {
  return Math.min(Math.max(left, 0), grant) + grant;
}

/**
 * PayPal's fee on a domestic US payment through PayPal Checkout (its published merchant fees): 3.49 % plus 49 cents.
 * What a payment leaves us, in cents (a fraction of a cent is kept: this is arithmetic, not money moved).
 */
export function netOfPaypalFee(cents: number): number {
  return cents - (cents * 349) / 10_000 - 49;
}

/**
 * What Replicate charges for one run of each model we offer, in US cents: each registry entry's `providerCents`
 * (contract/models/, beside its price, with the provider's billing), by registry slug. An entry that runs no model of
 * its own, like variations, is priced by its source's.
 */
export const REPLICATE_COST_CENTS: Readonly<Record<string, (o: ResolvedOptions) => number>> = Object.fromEntries(
  MODELS.flatMap((m) => (m.providerCents ? [[m.slug, m.providerCents]] : [])),
);

/** Cents per credit of the pack that sells credits cheapest (what a plan must beat). */
export const BEST_PACK_CENTS_PER_CREDIT = Math.min(...CREDIT_PACKS.map((p) => p.cents / p.credits));
