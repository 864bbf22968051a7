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
 * What Replicate charges for one run of each model we offer, in US cents, as its model pages publish it (rounded up):
 * SDXL bills GPU time (L40S, a 768x768 image in about 5 s: 0.5 cent; counted as 1 cent), Wan 2.1 480p bills each second
 * of output (9 cents, the image-to-video price, the higher of the two), Pixverse v4.5 bills per clip by quality, double
 * for 8 s; Kling 2.1 bills each second of output by mode; the FLUX models and the upscaler per image or run (below).
 * Keys are registry slugs (an entry that runs no model of its own, like variations, is priced by its source's); the
 * options are the registry's.
 */
export const REPLICATE_COST_CENTS: Readonly<Record<string, (o: Readonly<Record<string, unknown>>) => number>> = {
  sdxl: (o) => 1 * Number(o.count ?? 1),
  wan: (o) => 9 * Number(o.duration),
  pixverse: (o) => ({ '540p': 30, '720p': 40, '1080p': 80 })[String(o.quality)]! * (Number(o.duration) > 5 ? 2 : 1),
  // Kling 2.1 bills each second of output: 5 cents in its standard mode (720p), 9 in pro (1080p).
  kling: (o) => (o.quality === '1080p' ? 9 : 5) * Number(o.duration),
  // FLUX schnell: $0.003 an image (counted as a cent); FLUX 1.1 pro and FLUX Kontext pro: 4 cents an image.
  'flux-fast': (o) => 1 * Number(o.count ?? 1),
  'flux-pro': () => 4,
  edit: () => 4,
  // Real-ESRGAN bills GPU time: well under a cent a run (counted as one).
  upscale: () => 1,
};

/** Cents per credit of the pack that sells credits cheapest (what a plan must beat). */
export const BEST_PACK_CENTS_PER_CREDIT = Math.min(...CREDIT_PACKS.map((p) => p.cents / p.credits));
