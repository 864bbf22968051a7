import { cx } from '../../lib/cx';
import type { MediaItemView } from './media-api';

/** "0:10", "1:05": a video's length on its card and in the lightbox. */
export function durationLabel(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

/** The star: pressed when the result is a favourite. */
export function FavoriteButton({ item, onToggle, className }: { item: MediaItemView; onToggle: () => void; className?: string }) {
  const on = item.favorite === true;
  return (
    <button
      type="button"
      onClick={onToggle}
      aria-pressed={on}
      aria-label={on ? 'Remove from favourites' : 'Add to favourites'}
      title={on ? 'Remove from favourites' : 'Add to favourites'}
      className={cx(
        'inline-flex size-8 items-center justify-center rounded-control border border-line bg-surface/80 transition-colors hover:bg-surface-hover',
        on ? 'text-amber-300' : 'text-ink-muted',
        className,
      )}
    >
      <svg aria-hidden="true" viewBox="0 0 20 20" className="size-4" fill={on ? 'currentColor' : 'none'} stroke="currentColor" strokeWidth="1.5">
        <path d="M10 2.5l2.3 4.7 5.2.8-3.8 3.7.9 5.2L10 14.4l-4.6 2.5.9-5.2L2.5 8l5.2-.8L10 2.5z" />
      </svg>
    </button>
  );
}
