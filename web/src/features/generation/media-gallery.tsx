import { useId, useRef, useState, type ReactNode } from 'react';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { Modal } from '../../components/modal';
import { cx } from '../../lib/cx';
import { useSession } from '../auth';
import { AddToCollection, RemoveFromCollection } from './collections';
import { GenerationText, reasonOf } from './generation-messages';
import type { CollectionView, MediaItemView } from './media-api';
import { Lightbox } from './lightbox';
import { MediaCard } from './media-card';
import { toggleFavorite, type MediaList } from './media-list';

export interface GalleryMessages {
  /** The first page could not be loaded. */
  loadFailed: (reason: string) => string;
  /** A further page could not be loaded. */
  moreFailed: (reason: string) => string;
  deleteFailed: (reason: string) => string;
  empty: ReactNode;
  /** What to do next when the list is empty (an empty state always leads somewhere). */
  emptyHint?: ReactNode;
  emptyAction?: ReactNode;
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
  /** Filters shown above the grid (My Account). */
  toolbar?: ReactNode;
  /** Checkboxes on the cards, with Select all, Delete selected, Download selected (one zip) and Add to collection. */
  selectable?: boolean;
  /** The collection the list is filtered by: the selection and the viewer offer "Remove from <name>". */
  collection?: CollectionView;
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
export function MediaGallery({
  title,
  description,
  list,
  messages,
  onSelect,
  selectedId,
  onDeleted,
  columns = 'images',
  className,
  toolbar,
  selectable = false,
  collection,
}: MediaGalleryProps) {
  const { status: sessionStatus } = useSession();
  const [actionError, setActionError] = useState<string | undefined>();
  const [notice, setNotice] = useState<string | undefined>();
  const [openId, setOpenId] = useState<string | undefined>();
  const [checked, setChecked] = useState<ReadonlySet<string>>(new Set());
  const [confirmBulk, setConfirmBulk] = useState(false);
  const [busy, setBusy] = useState<'delete' | 'zip' | undefined>();
  const headingId = useId();
  const headingRef = useRef<HTMLHeadingElement>(null);
  // Only what is still listed counts as selected (a deletion elsewhere, another filter).
  const selection = list.items.filter((i) => checked.has(i.id));
  const check = (id: string, on: boolean) =>
    setChecked((prev) => {
      const next = new Set(prev);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  async function removeSelected() {
    setConfirmBulk(false);
    setActionError(undefined);
    setNotice(undefined);
    setBusy('delete');
    const failures: string[] = [];
    // One request per item: each deletes its item, its share link and its file, and says on its own if it fails.
    for (const item of selection) {
      try {
        await list.remove(item.id);
        onDeleted?.(item);
      } catch (err) {
        failures.push(reasonOf(err));
      }
    }
    setBusy(undefined);
    setChecked(new Set());
    const done = selection.length - failures.length;
    if (failures.length) setActionError(`Deleted ${done} of ${selection.length}. ${failures.length} could not be deleted: ${failures[0]}`);
    else setNotice(`Deleted ${done} ${done === 1 ? 'item' : 'items'}.`);
    headingRef.current?.focus();
  }

  async function zipSelected() {
    setActionError(undefined);
    setBusy('zip');
    try {
      const { downloadZip } = await import('./zip-download');
      await downloadZip(selection);
    } catch (err) {
      setActionError(`Could not make the zip: ${reasonOf(err)}`);
    } finally {
      setBusy(undefined);
    }
  }

  const favorite = (item: MediaItemView) =>
    void toggleFavorite(item).catch((err) => setActionError(`Could not change the favourite: ${reasonOf(err)}`));

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
      {toolbar}
      {selectable && list.status === 'ready' && list.items.length > 0 && (
        <div className="mb-4 flex flex-wrap items-center gap-2" role="toolbar" aria-label="Selection">
          <label className="flex items-center gap-2 text-sm text-ink-muted">
            <input
              type="checkbox"
              checked={selection.length > 0 && selection.length === list.items.length}
              onChange={(e) => setChecked(e.target.checked ? new Set(list.items.map((i) => i.id)) : new Set())}
            />
            Select all ({list.items.length})
          </label>
          {selection.length > 0 && (
            <>
              <span className="text-sm text-ink" role="status">
                {selection.length} selected
              </span>
              <Button size="sm" variant="secondary" loading={busy === 'zip'} disabled={busy !== undefined} onClick={() => void zipSelected()}>
                Download selected
              </Button>
              <Button size="sm" variant="danger" loading={busy === 'delete'} disabled={busy !== undefined} onClick={() => setConfirmBulk(true)}>
                Delete selected
              </Button>
              <AddToCollection
                items={selection}
                onDone={(m) => {
                  setActionError(undefined);
                  setNotice(m);
                }}
                onError={setActionError}
              />
              {collection && (
                <RemoveFromCollection
                  collection={collection}
                  items={selection}
                  onDone={(m) => {
                    setActionError(undefined);
                    setChecked(new Set());
                    setNotice(m);
                  }}
                  onError={setActionError}
                />
              )}
            </>
          )}
        </div>
      )}
      <div className="mb-4 empty:hidden">
        {actionError && <Alert variant="error" onDismiss={() => setActionError(undefined)}>{actionError}</Alert>}
        {notice && <Alert variant="success" onDismiss={() => setNotice(undefined)}>{notice}</Alert>}
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
        <EmptyState title={messages.empty} description={messages.emptyHint} action={messages.emptyAction} />
      ) : (
        <>
          <ul className={cx('grid gap-4', gridColumns[columns])}>
            {list.items.map((item) => (
              <li key={item.id}>
                <MediaCard
                  item={item}
                  onDelete={(i) => void remove(i)}
                  onError={setActionError}
                  onSelect={onSelect}
                  selected={item.id === selectedId}
                  onOpen={(i) => setOpenId(i.id)}
                  onToggleFavorite={favorite}
                  uniform={columns === 'mixed'}
                  {...(selectable ? { checked: checked.has(item.id), onCheck: (i: MediaItemView, on: boolean) => check(i.id, on) } : {})}
                />
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
      <Lightbox items={list.items} openId={openId} onOpen={setOpenId} onDelete={(i) => void remove(i)} collection={collection} />
      <Modal
        open={confirmBulk}
        onClose={() => setConfirmBulk(false)}
        size="sm"
        title={`Delete ${selection.length} ${selection.length === 1 ? 'item' : 'items'}?`}
        description="They will be removed from your account for good, with their files and share links."
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirmBulk(false)}>
              Cancel
            </Button>
            <Button variant="danger" onClick={() => void removeSelected()}>
              Delete
            </Button>
          </>
        }
      />
    </section>
  );
}
