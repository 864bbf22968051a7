/**
 * Which of a page's registry entries the generator runs (the image page: SDXL, FLUX Fast, FLUX 1.1 Pro), each with the
 * price of its default options and its tagline.
 */
import { useId } from 'react';
import { priceOf, type ModelDef } from '../../../../contract/models';

function priceLabel(model: ModelDef): string {
  const price = priceOf(model, {});
  return price.ok ? `${price.cost} credit${price.cost === 1 ? '' : 's'}` : price.reason;
}

export function ModelPicker({ models, value, onChange, disabled }: { models: readonly ModelDef[]; value: ModelDef; onChange: (model: ModelDef) => void; disabled: boolean }) {
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
          const picked = models.find((m) => m.slug === e.target.value);
          if (picked) onChange(picked);
        }}
      >
        {models.map((m) => (
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
