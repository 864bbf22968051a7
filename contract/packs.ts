/** Credit packs. Amounts are strings in USD so money is never a float. */
import { WAN_COST } from './models/wan-price';

/**
 * What a basic video costs: the registry's price of the spec's basic video, a 5 s Wan clip (test/web/true-claims
 * checks it against the entry's own price). The spec's table says 12 / 24 / 36 for the three packs, which matches no
 * price: the numbers shown are worked out from this one.
 */
const BASIC_VIDEO_CREDITS = WAN_COST[5]!;

export interface CreditPack {
  id: string;
  credits: number;
  /** Price in USD as PayPal expects it, e.g. "6.99". */
  amount: string;
  /** Price in cents, for arithmetic. */
  cents: number;
  /** How many basic videos (5 s Wan clips) the pack pays for in full: its credits over BASIC_VIDEO_CREDITS, rounded down. */
  basicVideos: number;
}

export const CURRENCY = 'USD';

const pack = (credits: number, amount: string, cents: number): CreditPack => ({
  id: `pack-${credits}`,
  credits,
  amount,
  cents,
  basicVideos: Math.floor(credits / BASIC_VIDEO_CREDITS),
});

export const CREDIT_PACKS: readonly CreditPack[] = [pack(72, '6.99', 699), pack(150, '13.99', 1399), pack(300, '25.99', 2599)];

/**
 * Cents of a USD amount given as "6.99" or 6.99, or undefined unless it is an exact amount with at most
 * two decimals ("6.994" is not $6.99).
 */
export function toCents(amount: string | number): number | undefined {
  if (typeof amount === 'number') {
    if (!Number.isFinite(amount)) return undefined;
    const cents = Math.round(amount * 100);
    return Math.abs(amount * 100 - cents) < 1e-6 ? cents : undefined;
  }
  const m = /^\s*(\d{1,7})(?:\.(\d{1,2}))?\s*$/.exec(amount);
  if (!m) return undefined;
  return Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
}

/** The pack with exactly this price and credit count, or undefined. */
export function findPack(amount: string | number, credits: number): CreditPack | undefined {
  const cents = toCents(amount);
  if (cents === undefined) return undefined;
  return CREDIT_PACKS.find((p) => p.cents === cents && p.credits === credits);
}

export function formatUsd(cents: number): string {
  return `$${(cents / 100).toFixed(2)}`;
}
