import { useId, useState } from 'react';
import type { ModelDef, OptionDef, OptionValue } from '../../../../contract/models';

export type OptionState = Record<string, OptionValue | undefined>;

export interface ModelOptionsProps {
  model: ModelDef;
  value: OptionState;
  onChange: (next: OptionState) => void;
  disabled: boolean;
  /** Options another control already shows (the video pages' priced quality and duration tiles). */
  skip?: readonly string[];
  /** Options the request will not use as things stand, each with the reason shown beside it (disabled). */
  ignored?: Readonly<Record<string, string>>;
}

const inputClass = 'w-full rounded-control border border-line bg-surface px-3 py-2 text-sm text-ink disabled:opacity-50';

function OptionField({ id, def, value, onChange, disabled, ignored }: { id: string; def: OptionDef; value: OptionValue | undefined; onChange: (v: OptionValue | undefined) => void; disabled: boolean; ignored?: string }) {
  const fieldId = useId();
  const reasonId = useId();
  const label = (
    <label htmlFor={fieldId} className="text-sm font-medium text-ink">
      {def.label}
    </label>
  );
  if (def.kind === 'choice') {
    const current = value ?? def.default;
    return (
      <div className="flex flex-col gap-1">
        {label}
        <select
          id={fieldId}
          name={id}
          className={inputClass}
          disabled={disabled || ignored !== undefined}
          aria-describedby={ignored ? reasonId : undefined}
          value={String(current)}
          onChange={(e) => {
            const picked = def.values.find((v) => String(v) === e.target.value);
            onChange(picked);
          }}
        >
          {def.values.map((v) => (
            <option key={String(v)} value={String(v)}>
              {def.valueLabel ? def.valueLabel(v) : String(v)}
            </option>
          ))}
        </select>
        {ignored && (
          <p id={reasonId} className="text-xs text-ink-muted">
            {ignored}
          </p>
        )}
      </div>
    );
  }
  if (def.kind === 'text') {
    return (
      <div className="flex flex-col gap-1">
        {label}
        <textarea
          id={fieldId}
          name={id}
          rows={2}
          maxLength={def.maxLength}
          className={inputClass}
          disabled={disabled}
          placeholder="What to leave out"
          value={typeof value === 'string' ? value : ''}
          onChange={(e) => onChange(e.target.value === '' ? undefined : e.target.value)}
        />
      </div>
    );
  }
  return (
    <div className="flex flex-col gap-1">
      {label}
      <input
        id={fieldId}
        name={id}
        type="number"
        inputMode="numeric"
        min={0}
        step={1}
        className={inputClass}
        disabled={disabled}
        placeholder="Random"
        value={typeof value === 'number' ? value : ''}
        onChange={(e) => onChange(e.target.value === '' ? undefined : Number(e.target.value))}
      />
    </div>
  );
}

/**
 * A generator's options, rendered from the model's registry entry: the simple ones (aspect ratio) in view, the
 * rest (negative prompt, seed, image count, style) folded under "Advanced" so the default screen stays simple.
 */
export function ModelOptions({ model, value, onChange, disabled, skip = [], ignored = {} }: ModelOptionsProps) {
  const entries = Object.entries(model.options).filter(([id]) => !skip.includes(id));
  const field = ([id, def]: [string, OptionDef]) => (
    <OptionField key={id} id={id} def={def} value={value[id]} disabled={disabled} ignored={ignored[id]} onChange={(v) => onChange({ ...value, [id]: v })} />
  );
  const advanced = entries.filter(([, d]) => d.advanced);
  const [open, setOpen] = useState(false);
  const panelId = useId();
  return (
    <div className="flex flex-col gap-4">
      {entries.filter(([, d]) => !d.advanced).map(field)}
      {advanced.length > 0 && (
        // The disclosure pattern: the fields exist only while open (their values live in the page's state).
        <div className="rounded-control border border-line px-3 py-2">
          <button type="button" aria-expanded={open} aria-controls={panelId} onClick={() => setOpen(!open)} className="w-full text-left text-sm font-medium text-ink">
            <span aria-hidden="true">{open ? '▾ ' : '▸ '}</span>Advanced
          </button>
          {open && (
            <div id={panelId} className="mt-3 flex flex-col gap-4">
              {advanced.map(field)}
            </div>
          )}
        </div>
      )}
    </div>
  );
}

/** The options a request carries: only those set (the server fills in defaults and draws a seed). */
export function requestOptions(value: OptionState): Record<string, OptionValue> {
  return Object.fromEntries(Object.entries(value).filter((e): e is [string, OptionValue] => e[1] !== undefined));
}
