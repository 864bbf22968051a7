import { Button } from '../../components/button';
import type { MediaItemView } from './media-api';
import { MEDIA_CROSS_ORIGIN } from '../../lib/media-cross-origin';

/**
 * One of the user's own images as a picture the model takes (Animate's start image): shown, not uploaded again; Remove
 * goes back to picking.
 */
export function StartMediaCard({ item, onRemove, disabled, label = 'Start image' }: { item: MediaItemView; onRemove: () => void; disabled?: boolean; label?: string }) {
  return (
    <figure className="flex flex-col gap-2" aria-label={label}>
      <span className="text-sm font-medium text-ink">{label}</span>
      <div className="flex items-center gap-3 rounded-control border border-line bg-surface-raised p-2">
        <img src={item.url} crossOrigin={MEDIA_CROSS_ORIGIN} alt={item.prompt ? `${label}: ${item.prompt}` : label} className="size-16 shrink-0 rounded-control object-cover" />
        <figcaption className="min-w-0 flex-1 text-xs text-ink-muted">
          <span className="block truncate text-ink" title={item.prompt}>
            {item.prompt || 'Your image'}
          </span>
          From your images, not uploaded again.
        </figcaption>
        <Button variant="ghost" size="sm" onClick={onRemove} disabled={disabled}>
          Remove
        </Button>
      </div>
    </figure>
  );
}
