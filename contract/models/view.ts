/**
 * GET /api/models' answer, built from the registry: every model and operation with what it takes, what it costs and
 * the words the pages say about it. The public pages render from it too (it imports only the registry, no zod), so
 * the pricing and features pages show what the server charges.
 */
import { MODELS } from './index';
import { choicesOf, priceOf } from './options';
import type { ChoiceOption, ImageInputId, ModelDef, Operation, OptionValue } from './types';

export interface ModelOptionView {
  id: string;
  kind: 'choice' | 'text' | 'seed';
  label: string;
  advanced: boolean;
  values?: readonly OptionValue[];
  /** How each value reads on screen, where it differs from the value. */
  valueLabels?: Readonly<Record<string, string>>;
  default?: OptionValue;
  maxLength?: number;
  note?: string;
}

/** One axis of a price table: a choice option and its values, each as it reads on screen. */
export interface PriceAxis {
  id: string;
  label: string;
  values: Array<{ value: OptionValue; label: string }>;
}

/**
 * What a model's orders cost in credits, over the choices that change the price (every other option at its default):
 * `costs[row][column]`, null where that combination cannot be ordered. No axis: one price for every order.
 */
export interface PriceTable {
  rows: PriceAxis | null;
  columns: PriceAxis | null;
  costs: Array<Array<number | null>>;
}

export interface ModelView {
  id: string;
  name: string;
  tagline: string;
  strengths: readonly string[];
  kind: ModelDef['kind'];
  operation: Operation;
  upcoming: boolean;
  inputs: {
    prompt: { required: boolean } | null;
    images: Array<{ id: ImageInputId; label: string; required: boolean; from: 'result' | 'any'; hint?: string }>;
  };
  options: ModelOptionView[];
  /** Credits of a request with the default options; null when it depends on the source (variations) or cannot be ordered. */
  price: number | null;
  /** Null where there is no price of its own (upcoming; variations cost what their source costs). */
  prices: PriceTable | null;
  /** Typical run time of one order with the default options, in seconds. */
  typicalSeconds: number;
  /** The Replicate models (owner/name) it runs. */
  runsOn: string[];
}

const labelOf = (o: ChoiceOption, v: OptionValue) => o.valueLabel?.(v) ?? String(v);

function optionsOf(m: ModelDef): ModelOptionView[] {
  return Object.entries(m.options).map(([id, o]) => {
    if (o.kind === 'choice') {
      const labels = o.valueLabel ? Object.fromEntries(o.values.map((v) => [String(v), labelOf(o, v)])) : undefined;
      return {
        id,
        kind: o.kind,
        label: o.label,
        advanced: o.advanced,
        values: o.values,
        default: o.default,
        ...(labels ? { valueLabels: labels } : {}),
        ...(o.note ? { note: o.note } : {}),
      };
    }
    if (o.kind === 'text') return { id, kind: o.kind, label: o.label, advanced: o.advanced, maxLength: o.maxLength };
    return { id, kind: o.kind, label: o.label, advanced: o.advanced };
  });
}

const costOf = (m: ModelDef, given: Record<string, OptionValue>): number | null => {
  const p = priceOf(m, given);
  return p.ok ? p.cost : null;
};

/**
 * The price table: the choices whose values change the price (each tried with the rest at their defaults) are its
 * axes, the last in the entry's order as columns (a clip's duration), the one before as rows (its quality).
 */
export function priceTable(m: ModelDef): PriceTable | null {
  if (m.upcoming || m.rerun) return null;
  const pricing = choicesOf(m).filter(([id, o]) => new Set(o.values.map((v) => costOf(m, { [id]: v }))).size > 1);
  const axis = (e: (typeof pricing)[number] | undefined): PriceAxis | null =>
    e ? { id: e[0], label: e[1].label, values: e[1].values.map((v) => ({ value: v, label: labelOf(e[1], v) })) } : null;
  const columns = axis(pricing[pricing.length - 1]);
  const rows = axis(pricing[pricing.length - 2]);
  const cells = (r: PriceAxis | null, c: PriceAxis | null) => (r?.values ?? [undefined]).map((rv) =>
    (c?.values ?? [undefined]).map((cv) => costOf(m, { ...(r && rv ? { [r.id]: rv.value } : {}), ...(c && cv ? { [c.id]: cv.value } : {}) })),
  );
  return { rows, columns, costs: cells(rows, columns) };
}

export function modelView(m: ModelDef): ModelView {
  const price = m.rerun ? undefined : priceOf(m, {});
  return {
    id: m.slug,
    name: m.name,
    tagline: m.tagline,
    strengths: m.strengths,
    kind: m.kind,
    operation: m.operation,
    upcoming: m.upcoming,
    inputs: {
      prompt: m.inputs.prompt ?? null,
      images: (Object.entries(m.inputs.images) as Array<[ImageInputId, NonNullable<ModelDef['inputs']['images'][ImageInputId]>]>).map(([id, d]) => ({
        id,
        label: d.label,
        required: d.required,
        from: d.from,
        ...(d.hint ? { hint: d.hint } : {}),
      })),
    },
    options: optionsOf(m),
    price: price?.ok ? price.cost : null,
    prices: priceTable(m),
    typicalSeconds: m.typicalSeconds,
    runsOn: m.models.map((r) => r.id),
  };
}

/** Every entry as the pages and GET /api/models show it, in the registry's order. */
export const MODEL_VIEWS: readonly ModelView[] = MODELS.map(modelView);

/** The pages' groups: what makes a video, what makes an image, and what works on one of the caller's results. */
export const VIDEO_GENERATORS = MODEL_VIEWS.filter((m) => m.kind === 'video' && m.operation === 'generate');
export const IMAGE_GENERATORS = MODEL_VIEWS.filter((m) => m.kind === 'image' && m.operation === 'generate');
export const OPERATIONS = MODEL_VIEWS.filter((m) => m.operation !== 'generate');

export const modelsView = (): { models: ModelView[] } => ({ models: [...MODEL_VIEWS] });
