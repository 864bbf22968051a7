/**
 * Which image model the generator runs: every available image model of the registry that makes a picture from a
 * prompt (SDXL, FLUX Fast, FLUX 1.1 Pro), each with the price of its default options and its tagline.
 */
import { useId } from 'react';
import { MODELS, priceOf, type ModelDef } from '../../../../contract/models';

export const IMAGE_MODELS: readonly ModelDef[] = MODELS.filter((m) => m.kind === 'image' && m.operation === 'generate' && !m.upcoming && !m.rerun);

function priceLabel(model: ModelDef): string {
  const price = priceOf(model, {});
  return price.ok ? `${price.cost} credit${price.cost === 1 ? '' : 's'}` : price.reason;
}

export function ImageModelPicker({ value, onChange, disabled }: { value: ModelDef; onChange: (model: ModelDef) => void; disabled: boolean }) {
  const fieldId = useId();
  const hintId = useId();
  return (
    <div className="flex flex-col gap-1">
      <label htmlFor={fieldId} className="text-sm font-medium text-ink">
        Model
      </label>
      <select
        id={fieldId}
        name="model"
        className="w-full rounded-control border border-line bg-surface px-3 py-2 text-sm text-ink disabled:opacity-50"
        disabled={disabled}
        aria-describedby={hintId}
        value={value.slug}
        onChange={(e) => {
          const picked = IMAGE_MODELS.find((m) => m.slug === e.target.value);
          if (picked) onChange(picked);
        }}
      >
        {IMAGE_MODELS.map((m) => (
          <option key={m.slug} value={m.slug}>
            {`${m.name} · ${priceLabel(m)}`}
          </option>
        ))}
      </select>
      <p id={hintId} className="text-xs text-ink-muted">
        {value.tagline}
      </p>
    </div>
  );
}
