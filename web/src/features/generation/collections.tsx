/**
 * Named collections in the browser: the user's list (one TanStack query, read again after one is made, renamed or
 * deleted), the "Add to collection" form the viewer and the gallery's selection share (pick a collection or name a
 * new one), "Remove from <name>" for what a collection filter shows, and renaming or deleting the filtered collection.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { MAX_COLLECTION_NAME } from '../../../../contract/media-links';
import { Button } from '../../components/button';
import { Modal } from '../../components/modal';
import { queryClient } from '../../lib/query-client';
import { reasonOf } from './generation-messages';
import { createCollection, deleteCollection, listCollections, renameCollection, type CollectionView, type MediaItemView } from './media-api';
import { addItemsToCollection, forgetCollectionLists, removeItemsFromCollection } from './media-list';

const COLLECTIONS_KEY = ['collections'] as const;
const NEW = '';

/** The user's collections, oldest first; empty while loading or when they could not be read (the form still makes new ones). */
export function useCollections(): CollectionView[] {
  const query = useQuery({ queryKey: COLLECTIONS_KEY, queryFn: ({ signal }) => listCollections(signal), staleTime: 60_000 }, queryClient);
  return query.data ?? [];
}

const fieldClasses = 'rounded-control border border-line bg-surface px-2 py-1.5 text-sm text-ink';

/** Puts `items` in a chosen collection, or a new one named here; says what it did through onDone or onError. */
export function AddToCollection({ items, onDone, onError }: { items: readonly MediaItemView[]; onDone: (message: string) => void; onError: (message: string) => void }) {
  const collections = useCollections();
  const [choice, setChoice] = useState<string>(NEW);
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const id = useId();
  const chosen = collections.find((c) => c.id === choice);

  async function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setBusy(true);
    try {
      let target = chosen;
      if (!target) {
        target = await createCollection(name);
        await queryClient.invalidateQueries({ queryKey: COLLECTIONS_KEY });
        setChoice(target.id);
        setName('');
      }
      const { added, failure } = await addItemsToCollection(target.id, items);
      if (failure) onError(`Added ${added} of ${items.length} to ${target.name}. The rest could not be added: ${failure}`);
      else onDone(`Added ${added === 1 ? '1 item' : `${added} items`} to ${target.name}.`);
    } catch (err) {
      onError(`Could not add to the collection: ${reasonOf(err)}`);
    } finally {
      setBusy(false);
    }
  }

  return (
    <form className="flex flex-wrap items-center gap-2" aria-label="Add to collection" onSubmit={(e) => void onSubmit(e)}>
      <label htmlFor={`${id}-choice`} className="text-sm text-ink-muted">
        Collection
      </label>
      <select id={`${id}-choice`} className={fieldClasses} value={chosen ? choice : NEW} onChange={(e) => setChoice(e.target.value)}>
        {collections.map((c) => (
          <option key={c.id} value={c.id}>
            {c.name}
          </option>
        ))}
        <option value={NEW}>New collection…</option>
      </select>
      {!chosen && (
        <input
          aria-label="New collection name"
          className={`${fieldClasses} w-40`}
          maxLength={MAX_COLLECTION_NAME}
          placeholder="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
        />
      )}
      <Button type="submit" size="sm" variant="secondary" loading={busy}>
        Add to collection
      </Button>
    </form>
  );
}

/** Takes `items` out of `collection` (the one the gallery is filtered by); says what it did through onDone or onError. */
export function RemoveFromCollection({
  collection,
  items,
  onDone,
  onError,
}: {
  collection: CollectionView;
  items: readonly MediaItemView[];
  onDone: (message: string) => void;
  onError: (message: string) => void;
}) {
  const [busy, setBusy] = useState(false);
  async function remove() {
    setBusy(true);
    const { removed, failure } = await removeItemsFromCollection(collection.id, items);
    setBusy(false);
    if (failure) onError(`Removed ${removed} of ${items.length} from ${collection.name}. The rest could not be removed: ${failure}`);
    else onDone(`Removed ${removed === 1 ? '1 item' : `${removed} items`} from ${collection.name}.`);
  }
  return (
    <Button size="sm" variant="secondary" loading={busy} onClick={() => void remove()}>
      Remove from {collection.name}
    </Button>
  );
}

/**
 * Rename and Delete for the collection the gallery is filtered by. Deleting asks first and says the results stay;
 * onDeleted lets the page go back to all results.
 */
export function ManageCollection({ collection, onDeleted }: { collection: CollectionView; onDeleted: () => void }) {
  const [renaming, setRenaming] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [name, setName] = useState(collection.name);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState('');
  const id = useId();

  async function run(fn: () => Promise<void>, failed: string) {
    setBusy(true);
    setError('');
    try {
      await fn();
    } catch (err) {
      setError(`${failed}: ${reasonOf(err)}`);
    } finally {
      setBusy(false);
    }
  }
  const rename = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    void run(async () => {
      await renameCollection(collection.id, name);
      await queryClient.invalidateQueries({ queryKey: COLLECTIONS_KEY });
      setRenaming(false);
    }, 'Could not rename the collection');
  };
  const remove = () =>
    void run(async () => {
      setConfirming(false);
      await deleteCollection(collection.id);
      forgetCollectionLists(collection.id);
      await queryClient.invalidateQueries({ queryKey: COLLECTIONS_KEY });
      onDeleted();
    }, 'Could not delete the collection');

  return (
    <div className="flex flex-wrap items-center gap-2" role="group" aria-label={`Collection ${collection.name}`}>
      {renaming ? (
        <form className="flex flex-wrap items-center gap-2" aria-label="Rename collection" onSubmit={rename}>
          <label htmlFor={`${id}-name`} className="text-sm text-ink-muted">
            New name
          </label>
          <input id={`${id}-name`} className={`${fieldClasses} w-48`} maxLength={MAX_COLLECTION_NAME} value={name} onChange={(e) => setName(e.target.value)} />
          <Button type="submit" size="sm" variant="secondary" loading={busy}>
            Save name
          </Button>
          <Button size="sm" variant="ghost" onClick={() => setRenaming(false)}>
            Cancel
          </Button>
        </form>
      ) : (
        <>
          <Button
            size="sm"
            variant="secondary"
            onClick={() => {
              setName(collection.name);
              setRenaming(true);
            }}
          >
            Rename collection
          </Button>
          <Button size="sm" variant="ghost" loading={busy} onClick={() => setConfirming(true)}>
            Delete collection
          </Button>
        </>
      )}
      {error && (
        <p role="alert" className="w-full text-sm text-danger">
          {error}
        </p>
      )}
      <Modal
        open={confirming}
        onClose={() => setConfirming(false)}
        size="sm"
        title={`Delete the collection ${collection.name}?`}
        description="The collection goes; the results in it stay in your gallery."
        footer={
          <>
            <Button variant="secondary" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
            <Button variant="danger" onClick={remove}>
              Delete collection
            </Button>
          </>
        }
      />
    </div>
  );
}
