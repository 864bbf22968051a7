import { useId, useRef, useState, type ReactNode } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { cx } from '../../lib/cx';
import { useSession } from '../auth';
import { GenerationText, reasonOf } from './generation-messages';
import type { MediaItemView } from './media-api';
import { MediaCard } from './media-card';
import type { MediaList } from './media-list';

export interface GalleryMessages {
  /** The first page could not be loaded. */
  loadFailed: (reason: string) => string;
  /** A further page could not be loaded. */
  moreFailed: (reason: string) => string;
  deleteFailed: (reason: string) => string;
  empty: ReactNode;
}

export interface MediaGalleryProps {
  title: string;
  /** Under the title. */
  description?: ReactNode;
  list: MediaList;
  messages: GalleryMessages;
  onSelect?: (item: MediaItemView) => void;
  selectedId?: string;
  /** Called after an item was deleted on the server. */
  onDeleted?: (item: MediaItemView) => void;
  columns?: 'images' | 'videos' | 'mixed';
  className?: string;
}

const gridColumns = {
  images: 'grid-cols-1 min-[480px]:grid-cols-2 lg:grid-cols-3 2xl:grid-cols-4',
  videos: 'grid-cols-1 sm:grid-cols-2 xl:grid-cols-3',
  mixed: 'grid-cols-1 sm:grid-cols-2 xl:grid-cols-3',
} as const;

function SkeletonGrid({ columns }: { columns: keyof typeof gridColumns }) {
  return (
    <ul aria-hidden="true" className={cx('grid gap-4', gridColumns[columns])}>
      {Array.from({ length: columns === 'images' ? 4 : 3 }, (_, i) => (
        <li key={i} className="overflow-hidden rounded-card border border-line bg-surface">
          <div className={cx('animate-pulse bg-surface-raised', columns === 'images' ? 'aspect-square' : 'aspect-video')} />
          <div className="space-y-2 p-3">
            <div className="h-3 w-3/4 animate-pulse rounded bg-surface-raised" />
            <div className="h-3 w-1/2 animate-pulse rounded bg-surface-raised" />
          </div>
        </li>
      ))}
    </ul>
  );
}

/** A gallery of results with Download and Delete, its loading, empty and error states, and Load more. */
export function MediaGallery({ title, description, list, messages, onSelect, selectedId, onDeleted, columns = 'images', className }: MediaGalleryProps) {
  const { status: sessionStatus } = useSession();
  const [actionError, setActionError] = useState<string | undefined>();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);

  async function remove(item: MediaItemView) {
    setActionError(undefined);
    if (sessionStatus !== 'signedIn') {
      setActionError(GenerationText.signInToDelete);
      return;
    }
    // The card goes away at once: once the confirmation has closed, keep keyboard focus in the gallery.
    window.setTimeout(() => headingRef.current?.focus(), 0);
    try {
      await list.remove(item.id);
      onDeleted?.(item);
    } catch (err) {
      setActionError(messages.deleteFailed(reasonOf(err)));
    }
  }

  return (
    <section aria-labelledby={headingId} className={className}>
      <div className="mb-4">
        <h2 id={headingId} ref={headingRef} tabIndex={-1} className="text-lg font-semibold text-ink focus:outline-none">
          {title}
        </h2>
        {description && <div className="mt-1 text-sm text-ink-muted">{description}</div>}
      </div>
      <div className="mb-4 empty:hidden">
        {actionError && <Alert variant="error" onDismiss={() => setActionError(undefined)}>{actionError}</Alert>}
      </div>
      {list.status === 'loading' ? (
        <div role="status" aria-label="Loading...">
          <SkeletonGrid columns={columns} />
        </div>
      ) : list.status === 'error' ? (
        <Alert variant="error">
          <span className="flex flex-wrap items-center gap-3">
            {messages.loadFailed(list.loadError ?? '')}
            <Button size="sm" variant="secondary" onClick={list.reload}>
              Try again
            </Button>
          </span>
        </Alert>
      ) : list.items.length === 0 ? (
        <EmptyState title={messages.empty} />
      ) : (
        <>
          <ul className={cx('grid gap-4', gridColumns[columns])}>
            {list.items.map((item) => (
              <li key={item.id}>
                <MediaCard item={item} onDelete={(i) => void remove(i)} onError={setActionError} onSelect={onSelect} selected={item.id === selectedId} />
              </li>
            ))}
          </ul>
          {list.moreError && (
            <Alert variant="error" className="mt-4">
              {messages.moreFailed(list.moreError)}
            </Alert>
          )}
          {list.nextCursor && (
            <div className="mt-6 flex justify-center">
              <Button variant="secondary" loading={list.loadingMore} onClick={list.loadMore}>
                Load more
              </Button>
            </div>
          )}
        </>
      )}
    </section>
  );
}
