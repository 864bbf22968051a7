import { useId, type ReactNode } from 'react';
import type { PixverseQuality, VideoFamily } from '../../../../contract/catalog';
import { cx } from '../../lib/cx';
import { credits, priceOf } from '../marketing';

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

export interface VideoOptionsProps {
  family: VideoFamily;
  hasImage: boolean;
  duration: number;
  quality: PixverseQuality | undefined;
  onDuration: (duration: number) => void;
  onQuality: (quality: PixverseQuality) => void;
  disabled: boolean;
}

function durationNote(family: VideoFamily): string | undefined {
  if (family.id !== 'pixverse') return undefined;
  const [short, long] = family.durations;
  return `Replicate's Pixverse makes ${short}- or ${long}-second clips (not 10): the ${long}-second clip costs double, and 1080p is available only at ${short} seconds.`;
}

/** The family's options from the catalog (quality first for Pixverse, then duration), each with its price. */
export function VideoOptions({ family, hasImage, duration, quality, onDuration, onQuality, disabled }: VideoOptionsProps) {
  const choice = <T extends string | number>(value: T, label: string, d: number, q: PixverseQuality | undefined): Choice<T> => {
    const price = priceOf(family, hasImage, d, q);
    return { value, label, cost: price.ok ? price.cost : undefined, reason: price.ok ? undefined : price.reason };
  };
  return (
    <div className="flex flex-col gap-5">
      {family.qualities.length > 0 && quality && (
        <ChoiceGroup
          legend="Quality"
          name={`${family.id}-quality`}
          columns={3}
          value={quality}
          onChange={onQuality}
          disabled={disabled}
          choices={family.qualities.map((q) => choice(q, q, duration, q))}
        />
      )}
      <ChoiceGroup
        legend="Duration"
        name={`${family.id}-duration`}
        columns={2}
        value={duration}
        onChange={onDuration}
        disabled={disabled}
        note={durationNote(family)}
        choices={family.durations.map((d) => choice(d, `${d} seconds`, d, quality))}
      />
    </div>
  );
}
