import { useId, useState, type SyntheticEvent } from 'react';
import { Button, buttonClasses } from '../../components/button';
import { cx } from '../../lib/cx';
import { formatDateTime } from '../../lib/format-date-time';
import { ConfirmDelete } from './confirm-delete';
import { GenerationText } from './generation-messages';
import type { MediaItemView } from './media-api';
import { describeMedia, seedLabel } from './media-labels';
import { durationLabel, FavoriteButton } from './result-parts';
import { MEDIA_CROSS_ORIGIN } from '../../lib/media-cross-origin';

export interface MediaCardProps {
  item: MediaItemView;
  onDelete: (item: MediaItemView) => void;
  /** Shows a message in the gallery's error area (e.g. a missing download source). */
  onError: (message: string) => void;
  /** Images: show this one in the preview. */
  onSelect?: (item: MediaItemView) => void;
  selected?: boolean;
  /** Opens the result full size (the lightbox). */
  onOpen?: (item: MediaItemView) => void;
  /** Shows the star. */
  onToggleFavorite?: (item: MediaItemView) => void;
  /** Multi-select: the card's checkbox. */
  checked?: boolean;
  onCheck?: (item: MediaItemView, checked: boolean) => void;
  /** Same-shaped tiles whatever the media's shape (mixed grids). */
  uniform?: boolean;
}

/**
 * Download: the server's presigned link answers with Content-Disposition, so the browser saves the file as
 * {prompt}-{timestamp}.png|.mp4 instead of opening it.
 */
export function DownloadAction({ url, label, onError, size = 'sm' }: { url: string | undefined; label: string; onError: (m: string) => void; size?: 'sm' | 'md' }) {
  if (!url) {
    return (
      <Button variant="secondary" size={size} onClick={() => onError(GenerationText.sourceMissing)} aria-label={label}>
        Download
      </Button>
    );
  }
  return (
    <a href={url} download className={buttonClasses({ variant: 'secondary', size })} aria-label={label}>
      <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="size-4">
        <path d="M10.75 2.75a.75.75 0 0 0-1.5 0v8.69L6.53 8.72a.75.75 0 0 0-1.06 1.06l4 4a.75.75 0 0 0 1.06 0l4-4a.75.75 0 1 0-1.06-1.06l-2.72 2.72V2.75Z" />
        <path d="M3.5 12.75a.75.75 0 0 0-1.5 0v2.5A2.75 2.75 0 0 0 4.75 18h10.5A2.75 2.75 0 0 0 18 15.25v-2.5a.75.75 0 0 0-1.5 0v2.5c0 .69-.56 1.25-1.25 1.25H4.75c-.69 0-1.25-.56-1.25-1.25v-2.5Z" />
      </svg>
      Download
    </a>
  );
}

/** Plays the tile's muted clip while the pointer or focus is on it, and rewinds it when they leave. */
const hoverPlay = {
  onPointerEnter: (e: SyntheticEvent<HTMLElement>) => playIn(e.currentTarget, true),
  onPointerLeave: (e: SyntheticEvent<HTMLElement>) => playIn(e.currentTarget, false),
  onFocus: (e: SyntheticEvent<HTMLElement>) => playIn(e.currentTarget, true),
  onBlur: (e: SyntheticEvent<HTMLElement>) => playIn(e.currentTarget, false),
};

function playIn(el: HTMLElement, on: boolean): void {
  const video = el.querySelector('video');
  if (!video) return;
  if (on) void video.play()?.catch(() => undefined);
  else {
    video.pause();
    video.currentTime = 0;
  }
}

/** One result: the image (opens in the preview, or full size) or the video (previewed on hover, opened full size), its prompt, Download and Delete. */
export function MediaCard({ item, onDelete, onError, onSelect, selected = false, onOpen, onToggleFavorite, checked, onCheck, uniform = false }: MediaCardProps) {
  const [confirming, setConfirming] = useState(false);
  const titleId = useId();
  const promptText = item.prompt.trim() || GenerationText.noPrompt;
  const what = item.type === 'image' ? 'image' : 'video';
  // Uniform tiles (My Account's mixed grid): every card the same shape, the media letterboxed inside, so nothing jumps.
  const frame = uniform ? 'aspect-[4/3] bg-black' : item.type === 'image' ? 'aspect-square bg-surface-raised' : 'aspect-video bg-black';
  const fit = uniform ? 'object-contain' : 'object-cover';

  return (
    <article
      aria-labelledby={titleId}
      data-testid="media-card"
      data-media-id={item.id}
      className={cx(
        'flex h-full flex-col overflow-hidden rounded-card border bg-surface shadow-card transition-colors',
        selected || checked ? 'border-brand' : 'border-line',
      )}
    >
      <div className={cx('relative w-full overflow-hidden', frame)}>
        {item.type === 'image' ? (
          onSelect || onOpen ? (
            <button
              type="button"
              onClick={() => (onSelect ? onSelect(item) : onOpen?.(item))}
              aria-pressed={onSelect ? selected : undefined}
              aria-label={onSelect ? `Show in preview: ${promptText}` : `Open full size: ${promptText}`}
              className="block size-full"
            >
              <img src={item.url} crossOrigin={MEDIA_CROSS_ORIGIN} alt="" loading="lazy" className={cx('size-full transition-transform duration-300 hover:scale-[1.03]', fit)} />
            </button>
          ) : (
            <img src={item.url} crossOrigin={MEDIA_CROSS_ORIGIN} alt={promptText} loading="lazy" className={cx('size-full', fit)} />
          )
        ) : onOpen ? (
          // A tile previews its clip while pointed at or focused (muted, no controls); opened, the viewer has them.
          <button type="button" onClick={() => onOpen(item)} aria-label={`Open full size: ${promptText}`} className="block size-full" {...hoverPlay}>
            <video
              src={item.url}
              crossOrigin={MEDIA_CROSS_ORIGIN}
              poster={item.posterUrl}
              muted
              loop
              playsInline
              preload={item.posterUrl ? 'none' : 'metadata'}
              aria-hidden="true"
              tabIndex={-1}
              className="pointer-events-none size-full object-contain"
            />
          </button>
        ) : (
          <video
            src={item.url}
            crossOrigin={MEDIA_CROSS_ORIGIN}
            poster={item.posterUrl}
            controls
            playsInline
            preload={item.posterUrl ? 'none' : 'metadata'}
            aria-label={`Video: ${promptText}`}
            className="size-full object-contain"
          />
        )}
        {onCheck && (
          <label className="absolute top-2 left-2 inline-flex size-8 items-center justify-center rounded-control border border-line bg-surface/80">
            <input type="checkbox" checked={checked ?? false} onChange={(e) => onCheck(item, e.target.checked)} aria-label={`Select ${what}: ${promptText}`} />
          </label>
        )}
        <div className="absolute top-2 right-2 flex gap-1">
          {item.shareUrl && (
            <span className="rounded-control bg-brand px-2 py-1 text-xs font-medium text-white" data-testid="shared-badge">
              Shared
            </span>
          )}
          {onToggleFavorite && <FavoriteButton item={item} onToggle={() => onToggleFavorite(item)} />}
          {onOpen && onSelect && (
            <button
              type="button"
              onClick={() => onOpen(item)}
              aria-label={`Open full size: ${promptText}`}
              title="Open full size"
              className="inline-flex size-8 items-center justify-center rounded-control border border-line bg-surface/80 text-ink-muted hover:bg-surface-hover"
            >
              <svg aria-hidden="true" viewBox="0 0 20 20" fill="none" stroke="currentColor" strokeWidth="1.5" className="size-4">
                <path d="M12 3h5v5M8 17H3v-5M17 3l-6 6M3 17l6-6" />
              </svg>
            </button>
          )}
        </div>
        {item.type === 'video' && item.durationSeconds !== undefined && (
          <span className={cx('pointer-events-none absolute right-2 rounded bg-black/70 px-1.5 py-0.5 text-xs text-white', onOpen ? 'bottom-2' : 'bottom-12')} data-testid="duration-badge">
            {durationLabel(item.durationSeconds)}
          </span>
        )}
      </div>
      <div className="flex flex-1 flex-col gap-2 p-3">
        <p id={titleId} className={cx('line-clamp-2 break-words text-sm', item.prompt.trim() ? 'text-ink' : 'italic text-ink-subtle')} title={item.prompt}>
          {promptText}
        </p>
        <p className="text-xs text-ink-subtle">
          {describeMedia(item)} · <time dateTime={item.createdAt}>{formatDateTime(item.createdAt, '')}</time>
        </p>
        {seedLabel(item.options) && (
          <p className="text-xs text-ink-subtle" data-testid="media-seed">
            {seedLabel(item.options)}
          </p>
        )}
        <div className="mt-auto flex flex-wrap gap-2 pt-1">
          <DownloadAction url={item.downloadUrl} label={`Download ${what}: ${promptText}`} onError={onError} />
          <Button variant="ghost" size="sm" onClick={() => setConfirming(true)} aria-label={`Delete ${what}: ${promptText}`}>
            Delete
          </Button>
        </div>
      </div>
      <ConfirmDelete
        open={confirming}
        noun={what}
        prompt={item.prompt}
        onCancel={() => setConfirming(false)}
        onConfirm={() => {
          setConfirming(false);
          onDelete(item);
        }}
      />
    </article>
  );
}
