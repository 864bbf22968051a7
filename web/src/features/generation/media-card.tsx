import { useId, useState } from 'react';
import { Button, buttonClasses } from '../../components/button';
import { cx } from '../../lib/cx';
import { formatDateTime } from '../../lib/format-date-time';
import { ConfirmDelete } from './confirm-delete';
import { GenerationText } from './generation-messages';
import type { MediaItemView } from './media-api';
import { describeMedia, seedLabel } from './media-labels';

export interface MediaCardProps {
  item: MediaItemView;
  onDelete: (item: MediaItemView) => void;
  /** Shows a message in the gallery's error area (e.g. a missing download source). */
  onError: (message: string) => void;
  /** Images: show this one in the preview. */
  onSelect?: (item: MediaItemView) => void;
  selected?: boolean;
}

/**
 * Download: the server's presigned link answers with Content-Disposition, so the browser saves the file as
 * {prompt}-{timestamp}.png|.mp4 (spec section 5) instead of opening it.
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

/** One result: the image (opens in the preview) or a video player, its prompt, Download and Delete. */
export function MediaCard({ item, onDelete, onError, onSelect, selected = false }: MediaCardProps) {
  const [confirming, setConfirming] = useState(false);
  const titleId = useId();
  const promptText = item.prompt.trim() || GenerationText.noPrompt;
  const what = item.type === 'image' ? 'image' : 'video';

  return (
    <article
      aria-labelledby={titleId}
      className={cx(
        'flex h-full flex-col overflow-hidden rounded-card border bg-surface shadow-card transition-colors',
        selected ? 'border-brand' : 'border-line',
      )}
    >
      {item.type === 'image' ? (
        onSelect ? (
          <button
            type="button"
            onClick={() => onSelect(item)}
            aria-pressed={selected}
            aria-label={`Show in preview: ${promptText}`}
            className="block aspect-square w-full overflow-hidden bg-surface-raised"
          >
            <img src={item.url} alt="" loading="lazy" className="size-full object-cover transition-transform duration-300 hover:scale-[1.03]" />
          </button>
        ) : (
          <div className="aspect-square w-full overflow-hidden bg-surface-raised">
            <img src={item.url} alt={promptText} loading="lazy" className="size-full object-cover" />
          </div>
        )
      ) : (
        <video
          src={item.url}
          poster={item.posterUrl}
          controls
          playsInline
          preload="metadata"
          aria-label={`Video: ${promptText}`}
          className="aspect-video w-full bg-black object-contain"
        />
      )}
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
