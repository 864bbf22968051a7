import type { ChoiceOption, ModelDef, OptionDef, OptionValue, OptionValues, ResolvedOptions } from './types';

/** Seeds are 32-bit signed integers on every model we run; the server draws one in this range when none is given. */
export const SEED_MAX = 2_147_483_647;
export const NEGATIVE_PROMPT_MAX = 1000;

/** The seeds of a batch of `count` images from its first seed: one after another, wrapping past SEED_MAX to 0. */
export const batchSeeds = (first: number, count: number): number[] => Array.from({ length: count }, (_, i) => (first + i) % (SEED_MAX + 1));

const list = (values: readonly OptionValue[]) =>
  values.length <= 1 ? String(values[0] ?? '') : `${values.slice(0, -1).join(', ')} or ${values[values.length - 1]}`;

export const OptionMessages = {
  notTaken: (model: string, option: string, taken: readonly string[]) =>
    `${model} takes no ${option}.${taken.length ? ` Its options: ${taken.join(', ')}.` : ''}`,
  choice: (label: string, values: readonly OptionValue[]) => `${label} must be ${list(values)}.`,
  seed: `Seed must be a whole number from 0 to ${SEED_MAX}.`,
  text: (label: string, max: number) => `${label} must be text of at most ${max} characters.`,
};

export type ResolveResult = { ok: true; options: ResolvedOptions } | { ok: false; reason: string };

function checkOne(def: OptionDef, v: OptionValue): string | undefined {
  switch (def.kind) {
    case 'choice':
      return def.values.includes(v) ? undefined : OptionMessages.choice(def.label, def.values);
    case 'seed':
      return typeof v === 'number' && Number.isInteger(v) && v >= 0 && v <= SEED_MAX ? undefined : OptionMessages.seed;
    case 'text':
      return typeof v === 'string' && v.length <= def.maxLength ? undefined : OptionMessages.text(def.label, def.maxLength);
  }
}

/**
 * Checks a request's options against the model: an option the model does not take, a value outside its list or
 * range, or a combination it cannot make is refused with a sentence naming what it takes. Choices left out get
 * their default; an empty negative prompt is dropped; the seed is `seed()` when left out.
 */
export function resolveOptions(model: ModelDef, given: OptionValues, seed: () => number): ResolveResult {
  const out: Record<string, OptionValue> = {};
  const taken = Object.keys(model.options);
  for (const [id, v] of Object.entries(given)) {
    if (v === undefined) continue;
    const def = model.options[id];
    if (!def) return { ok: false, reason: OptionMessages.notTaken(model.name, id, taken) };
    const problem = checkOne(def, v);
    if (problem) return { ok: false, reason: problem };
    if (def.kind === 'text' && String(v).trim() === '') continue;
    out[id] = def.kind === 'text' ? String(v).trim() : v;
  }
  for (const [id, def] of Object.entries(model.options)) {
    if (out[id] !== undefined) continue;
    if (def.kind === 'choice') out[id] = def.default;
    else if (def.kind === 'seed') out[id] = seed();
  }
  const why = model.unavailable?.(out);
  return why ? { ok: false, reason: why } : { ok: true, options: out };
}

export type PriceResult = { ok: true; cost: number } | { ok: false; reason: string };

/** The price of a request with these options (the seed does not change it), or why it cannot be ordered. */
export function priceOf(model: ModelDef, given: OptionValues): PriceResult {
  if (model.upcoming) return { ok: false, reason: `${model.name} is coming soon.` };
  if (model.rerun) return { ok: false, reason: `${model.name} cost what their source costs.` };
  const r = resolveOptions(model, given, () => 0);
  return r.ok ? { ok: true, cost: model.price(r.options) } : r;
}

/**
 * How many predictions a request with these options runs one after another (a 10 s Wan clip is two segments), and so
 * how long it usually takes: the model's typical time for each. What the model does not take is left out, and a combination
 * it cannot make counts as one prediction (an estimate, never a refusal).
 */
export function runOf(model: ModelDef, given: Readonly<Record<string, unknown>>): { predictions: number; typicalSeconds: number } {
  // resolveOptions checks each value it is given against its option.
  const taken = Object.fromEntries(Object.entries(given).filter(([id]) => model.options[id])) as OptionValues;
  const r = resolveOptions(model, taken, () => 0);
  const predictions = r.ok ? 1 + (model.plan(r.options, '', false).continuation?.length ?? 0) : 1;
  return { predictions, typicalSeconds: model.typicalSeconds * predictions };
}

/** The model's choice options (what the web shows as tiles or selects, and what a price table spans). */
export function choicesOf(model: ModelDef): Array<[string, ChoiceOption]> {
  return Object.entries(model.options).filter((e): e is [string, ChoiceOption] => e[1].kind === 'choice');
}

/** Every combination of the model's choices (for price tables and the tests that hold prices to charges). */
export function everyCombination(model: ModelDef): Array<Record<string, OptionValue>> {
  let combos: Array<Record<string, OptionValue>> = [{}];
  for (const [id, def] of choicesOf(model)) combos = combos.flatMap((c) => def.values.map((v) => ({ ...c, [id]: v })));
  return combos;
}

/**
 * The Replicate model (owner/name) a request with these options runs first: the entry's own plan decides, so an entry
 * that picks by the start picture (Wan: text- or image-to-video) is asked, never guessed. Undefined for an entry that
 * runs its source's model (variations) or for options it cannot take.
 */
export function replicateModelOf(model: ModelDef, given: OptionValues, hasImage: boolean): string | undefined {
  if (model.rerun) return undefined;
  const r = resolveOptions(model, given, () => 0);
  return r.ok ? model.plan(r.options, '', hasImage).model.id : undefined;
}
