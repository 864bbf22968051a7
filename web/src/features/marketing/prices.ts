import { IMAGE_COST, SIGNUP_CREDITS, VIDEO_FAMILIES, priceVideo, type VideoFamily } from '../../../../contract/catalog';
import { CREDIT_PACKS, formatUsd, type CreditPack } from '../../../../contract/packs';

/**
 * Prices as the marketing pages show them, all derived from contract/ (the same tables the server charges
 * from): nothing here is typed in by hand.
 */
export interface VideoPriceRow {
  family: VideoFamily;
  /** Pixverse's quality; undefined for Wan. */
  quality?: string;
  /** Credits per duration, in the family's duration order; undefined where that combination is not offered. */
  costs: Array<{ duration: number; cost: number | undefined }>;
}

export const availableFamilies = (): VideoFamily[] => VIDEO_FAMILIES.filter((f) => !f.upcoming);
export const upcomingFamilies = (): VideoFamily[] => VIDEO_FAMILIES.filter((f) => f.upcoming);

export function familyById(id: VideoFamily['id']): VideoFamily {
  const family = VIDEO_FAMILIES.find((f) => f.id === id);
  if (!family) throw new Error(`No video family ${id}`);
  return family;
}

function costOf(family: VideoFamily, duration: number, quality?: string): number | undefined {
  const result = priceVideo(family.models[0]!, duration, quality);
  return result.ok ? result.cost : undefined;
}

/** One row per family (Wan) or per family and quality (Pixverse). */
export function videoPriceRows(): VideoPriceRow[] {
  return availableFamilies().flatMap((family) => {
    const qualities: Array<string | undefined> = family.qualities.length ? [...family.qualities] : [undefined];
    return qualities.map((quality) => ({
      family,
      quality,
      costs: family.durations.map((duration) => ({ duration, cost: costOf(family, duration, quality) })),
    }));
  });
}

/** The cheapest and dearest video of a family, in credits. */
export function familyCostRange(family: VideoFamily): { min: number; max: number } {
  const costs = videoPriceRows()
    .filter((r) => r.family.id === family.id)
    .flatMap((r) => r.costs.map((c) => c.cost))
    .filter((c): c is number => c !== undefined);
  return { min: Math.min(...costs), max: Math.max(...costs) };
}

/** e.g. "$0.097" per credit: the price of one credit in a pack, to a tenth of a cent. */
export function pricePerCredit(pack: CreditPack): string {
  return `$${(pack.cents / 100 / pack.credits).toFixed(3)}`;
}

export const cheapestPack = (): CreditPack => [...CREDIT_PACKS].sort((a, b) => a.cents - b.cents)[0]!;

export { CREDIT_PACKS, IMAGE_COST, SIGNUP_CREDITS, formatUsd };
export type { CreditPack, VideoFamily };

/** "5 or 10 seconds" */
export function listDurations(durations: readonly number[]): string {
  if (durations.length <= 1) return `${durations[0] ?? ''} seconds`;
  return `${durations.slice(0, -1).join(', ')} or ${durations[durations.length - 1]} seconds`;
}

/** "1 credit", "8 credits" */
export const credits = (n: number): string => `${n} ${n === 1 ? 'credit' : 'credits'}`;
