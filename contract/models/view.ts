/**
 * GET /api/models' answer, built from the registry: every model and operation with what it takes and what its
 * default options cost. The pages may render from it too (it imports only the registry).
 */
import { MODELS } from './index';
import { priceOf } from './options';
import type { ImageInputId, ModelDef, Operation, OptionValue } from './types';

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
}

export interface ModelView {
  id: string;
  name: string;
  tagline: string;
  kind: 'image' | 'video';
  operation: Operation;
  upcoming: boolean;
  inputs: {
    prompt: { required: boolean } | null;
    images: Array<{ id: ImageInputId; label: string; required: boolean; from: 'result' | 'any' }>;
  };
  options: ModelOptionView[];
  /** Credits of a request with the default options; null when it depends on the source (variations) or cannot be ordered. */
  price: number | null;
}

function optionsOf(m: ModelDef): ModelOptionView[] {
  return Object.entries(m.options).map(([id, o]) => {
    if (o.kind === 'choice') {
      const labels = o.valueLabel ? Object.fromEntries(o.values.map((v) => [String(v), o.valueLabel!(v)])) : undefined;
      return { id, kind: o.kind, label: o.label, advanced: o.advanced, values: o.values, default: o.default, ...(labels ? { valueLabels: labels } : {}) };
    }
    if (o.kind === 'text') return { id, kind: o.kind, label: o.label, advanced: o.advanced, maxLength: o.maxLength };
    return { id, kind: o.kind, label: o.label, advanced: o.advanced };
  });
}

export function modelView(m: ModelDef): ModelView {
  const price = m.rerun ? undefined : priceOf(m, {});
  return {
    id: m.slug,
    name: m.name,
    tagline: m.tagline,
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
      })),
    },
    options: optionsOf(m),
    price: price?.ok ? price.cost : null,
  };
}

export const modelsView = (): { models: ModelView[] } => ({ models: MODELS.map(modelView) });
