/** Credit packs. Amounts are strings in USD so money is never a float. */
export interface CreditPack {
  id: string;
  credits: number;
  /** Price in USD as PayPal expects it, e.g. "6.99". */
  amount: string;
  /** Price in cents, for arithmetic. */
  cents: number;
  /** How many basic (Wan 5 s) videos the pack is worth, as the spec states it. */
  basicVideos: number;
}

export const CURRENCY = 'USD';

export const CREDIT_PACKS: readonly CreditPack[] = [
  { id: 'pack-72', credits: 72, amount: '6.99', cents: 699, basicVideos: 12 },
  { id: 'pack-150', credits: 150, amount: '13.99', cents: 1399, basicVideos: 24 },
  { id: 'pack-300', credits: 300, amount: '25.99', cents: 2599, basicVideos: 36 },
];

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
