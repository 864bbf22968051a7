import {
  IMAGE_COST,
  PIXVERSE,
  SIGNUP_CREDITS,
  VIDEO_FAMILIES,
  priceVideo,
  videoFamily,
  wanModelFor,
  type PixverseQuality,
  type VideoFamily,
  type VideoPriceResult,
} from '../../../../contract/catalog';
import { CREDIT_PACKS, formatUsd, type CreditPack } from '../../../../contract/packs';

/**
 * Prices as the web app shows them, on the marketing pages and in the generators, all derived from contract/ (the
 * same tables and priceVideo the server charges with): nothing here is typed in by hand. It imports only contract/,
 * so the light marketing entry and the full app can both use it.
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

/** The Replicate model a request goes to: Wan image-to-video with a start image, text-to-video without. */
export function modelFor(family: VideoFamily, hasImage: boolean): string {
  return family.id === 'wan' ? wanModelFor(hasImage) : (family.models[0] ?? PIXVERSE);
}

/** The quality a request carries: only families that offer qualities send one. */
export function qualityFor(family: VideoFamily, quality: PixverseQuality | undefined): PixverseQuality | undefined {
  return family.qualities.length > 0 ? quality : undefined;
}

/** The price of one clip with these options, or why that combination cannot be ordered. */
export function priceOf(family: VideoFamily, hasImage: boolean, duration: number, quality: PixverseQuality | undefined): VideoPriceResult {
  return priceVideo(modelFor(family, hasImage), duration, qualityFor(family, quality));
}

function costOf(family: VideoFamily, duration: number, quality: PixverseQuality | undefined): number | undefined {
  const result = priceOf(family, false, duration, quality);
  return result.ok ? result.cost : undefined;
}

/** One row per family (Wan) or per family and quality (Pixverse). */
export function videoPriceRows(): VideoPriceRow[] {
  return availableFamilies().flatMap((family) => {
    const qualities: Array<PixverseQuality | undefined> = family.qualities.length ? [...family.qualities] : [undefined];
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
export function pricePerCredit(pack: Pick<CreditPack, 'cents' | 'credits'>): string {
  return `$${(pack.cents / 100 / pack.credits).toFixed(3)}`;
}

export const cheapestPack = (): CreditPack => [...CREDIT_PACKS].sort((a, b) => a.cents - b.cents)[0]!;

export { CREDIT_PACKS, IMAGE_COST, SIGNUP_CREDITS, formatUsd, videoFamily };
export type { CreditPack, VideoFamily };

/** "5 or 10 seconds" */
export function listDurations(durations: readonly number[]): string {
  if (durations.length <= 1) return `${durations[0] ?? ''} seconds`;
  return `${durations.slice(0, -1).join(', ')} or ${durations[durations.length - 1]} seconds`;
}

/** "1 credit", "8 credits" */
export const credits = (n: number): string => `${n} ${n === 1 ? 'credit' : 'credits'}`;

/** "1 Credit", "8 Credits": the generators' buttons capitalise the unit. */
const creditsTitle = (n: number): string => credits(n).replace('credit', 'Credit');

/** "Generate Image (1 Credit)": the cost comes from the catalog. */
export function generateImageLabel(cost = IMAGE_COST): string {
  return `Generate Image (${creditsTitle(cost)})`;
}

/**
 * The generator's button from the registry's price: "Generate Image (1 Credit)" for one image, "Generate 4 Images
 * (4 Credits)" for several, "Generate Video (8 Credits)" for a clip.
 */
export function generateLabel(kind: 'image' | 'video', cost: number | undefined, count = 1): string {
  if (kind === 'video') return generateVideoLabel(cost);
  if (count <= 1) return generateImageLabel(cost);
  return cost === undefined ? `Generate ${count} Images` : `Generate ${count} Images (${creditsTitle(cost)})`;
}

/** "Generate Video (8 Credits)", or "Generate Video" while the chosen options have no price. */
export function generateVideoLabel(cost: number | undefined): string {
  if (cost === undefined) return 'Generate Video';
  return `Generate Video (${creditsTitle(cost)})`;
}
