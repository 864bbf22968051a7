import { MEDIA_KINDS, type MediaKind } from '../../../../contract/media-kinds';
import { CREDIT_PACKS, type CreditPack } from '../../../../contract/packs';
import type { ModelOptionView, ModelView } from '../../../../contract/models/view';

/**
 * How prices read, on the marketing pages and in the generators alike: wording only. Every number comes from contract/
 * (the registry's views and the packs), so what a page shows is what the server charges.
 */

/** "1 credit", "8 credits" */
export const credits = (n: number): string => `${n} ${n === 1 ? 'credit' : 'credits'}`;

/** "1 Credit", "8 Credits": the generators' buttons capitalise the unit. */
const creditsTitle = (n: number): string => credits(n).replace('credit', 'Credit');

/** "a", "a or b", "a, b or c" */
export const listOf = (items: readonly string[]): string =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} or ${items[items.length - 1]}`;

/** A choice's values as a phrase: "5 or 10 seconds" when each label is its value and one shared word, else "2x or 4x". */
export function choiceText(option: Pick<ModelOptionView, 'values' | 'valueLabels'>): string {
  const values = (option.values ?? []).map(String);
  const labels = values.map((v) => option.valueLabels?.[v] ?? v);
  const unit = labels[0]?.startsWith(`${values[0]} `) ? labels[0].slice(values[0]!.length) : undefined;
  if (unit && labels.every((l, i) => l === `${values[i]}${unit}`)) return `${listOf(values)}${unit}`;
  return listOf(labels);
}

/** e.g. "$0.097" per credit: the price of one credit in a pack, to a tenth of a cent. */
export function pricePerCredit(pack: Pick<CreditPack, 'cents' | 'credits'>): string {
  return `$${(pack.cents / 100 / pack.credits).toFixed(3)}`;
}

export const cheapestPack = (): CreditPack => [...CREDIT_PACKS].sort((a, b) => a.cents - b.cents)[0]!;

/**
 * The generator's button from the registry's price: "Generate Image (1 Credit)" for one image, "Generate 4 Images
 * (4 Credits)" for several, "Generate Video (8 Credits)" for a clip; without the price while the options have none.
 */
export function generateLabel(kind: MediaKind, cost: number | undefined, count = 1): string {
  const noun = MEDIA_KINDS[kind].noun;
  const what = count <= 1 ? noun : `${count} ${noun}s`;
  return cost === undefined ? `Generate ${what}` : `Generate ${what} (${creditsTitle(cost)})`;
}

/** The lowest price of one order (default options) among these models. */
export function cheapestPrice(models: readonly Pick<ModelView, 'price'>[]): number {
  return Math.min(...models.flatMap((m) => (m.price === null ? [] : [m.price])));
}

/** "8 to 16 credits, by duration", "2 credits": a model's price range over its price table, and what moves it. */
export function priceSummary(prices: NonNullable<ModelView['prices']>): string {
  const costs = prices.costs.flat().filter((c): c is number => c !== null);
  const min = Math.min(...costs);
  const max = Math.max(...costs);
  const by = [prices.rows, prices.columns].flatMap((a) => (a ? [a.label.toLowerCase()] : []));
  return min === max ? credits(min) : `${min} to ${max} credits, by ${by.join(' and ')}`;
}
