import { useId, type ReactNode } from 'react';
import { priceOf, type ModelDef, type OptionValue } from '../../../../contract/models';
import { cx } from '../../lib/cx';
import type { OptionState } from './model-options';
import { credits } from '../marketing';

interface Choice<T extends string | number> {
  value: T;
  label: string;
  /** The price of the whole request with this choice, or why it cannot be ordered with the other options. */
  cost: number | undefined;
  reason: string | undefined;
}

interface ChoiceGroupProps<T extends string | number> {
  legend: string;
  name: string;
  choices: readonly Choice<T>[];
  value: T;
  onChange: (value: T) => void;
  disabled: boolean;
  note?: ReactNode;
  columns: number;
}

/** A radio group drawn as selectable tiles, each with its price. */
function ChoiceGroup<T extends string | number>({ legend, name, choices, value, onChange, disabled, note, columns }: ChoiceGroupProps<T>) {
  const noteId = useId();
  const unavailable = choices.filter((c) => c.cost === undefined && c.reason);
  return (
    <fieldset disabled={disabled} aria-describedby={note || unavailable.length ? noteId : undefined} className="flex min-w-0 flex-col gap-2">
      <legend className="mb-2 text-sm font-medium text-ink">{legend}</legend>
      <div className={cx('grid gap-2', columns === 3 ? 'grid-cols-3' : 'grid-cols-2')}>
        {choices.map((choice) => {
          const unavailableChoice = choice.cost === undefined;
          return (
            <label
              key={String(choice.value)}
              title={choice.reason}
              className={cx(
                'relative flex min-w-0 flex-col rounded-control border px-3 py-2 transition-colors',
                'has-[:checked]:border-brand has-[:checked]:bg-brand-soft',
                'has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-offset-2 has-[:focus-visible]:outline-focus',
                disabled || unavailableChoice ? 'cursor-not-allowed opacity-50' : 'cursor-pointer border-line hover:border-line-strong hover:bg-surface-hover',
                'border-line',
              )}
            >
              <input
                type="radio"
                name={name}
                value={String(choice.value)}
                checked={choice.value === value}
                disabled={unavailableChoice}
                onChange={() => onChange(choice.value)}
                // Transparent over the whole tile: the tile is the click target, the radio keeps its native keyboard use.
                className="absolute inset-0 z-10 m-0 size-full cursor-pointer appearance-none rounded-control opacity-0 disabled:cursor-not-allowed"
              />
              <span className="text-sm font-medium text-ink">{choice.label}</span>
              <span className="text-xs text-ink-subtle" data-testid="option-cost">
                {choice.cost === undefined ? 'Not available' : credits(choice.cost)}
              </span>
            </label>
          );
        })}
      </div>
      {(note || unavailable.length > 0) && (
        <div id={noteId} className="flex flex-col gap-1 text-xs text-ink-subtle">
          {unavailable.map((c) => (
            <p key={String(c.value)}>{c.reason}</p>
          ))}
          {note && <p>{note}</p>}
        </div>
      )}
    </fieldset>
  );
}

export interface PricedChoicesProps {
  model: ModelDef;
  /** The choices drawn as priced tiles (those that set the price), in the entry's order. */
  ids: readonly string[];
  value: OptionState;
  onChange: (next: OptionState) => void;
  disabled: boolean;
}

/**
 * The model's choices that set the price, from its registry entry (a clip's quality and duration), each value a tile
 * with the price of the whole request with it, or why it cannot go with the other choices; the option's note below.
 */
export function PricedChoices({ model, ids, value, onChange, disabled }: PricedChoicesProps) {
  return (
    <div className="flex flex-col gap-5">
      {ids.map((id) => {
        const def = model.options[id];
        if (def?.kind !== 'choice') return null;
        const choices = def.values.map((v): Choice<OptionValue> => {
          const price = priceOf(model, { ...value, [id]: v });
          return { value: v, label: def.valueLabel?.(v) ?? String(v), cost: price.ok ? price.cost : undefined, reason: price.ok ? undefined : price.reason };
        });
        return (
          <ChoiceGroup
            key={id}
            legend={def.label}
            name={`${model.slug}-${id}`}
            columns={def.values.length >= 3 ? 3 : 2}
            value={value[id] ?? def.default}
            onChange={(v) => onChange({ ...value, [id]: v })}
            disabled={disabled}
            note={def.note}
            choices={choices}
          />
        );
      })}
    </div>
  );
}
