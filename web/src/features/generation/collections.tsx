/**
 * Named collections in the browser: the user's list (one TanStack query, read again after one is made), and the
 * "Add to collection" form the viewer and the gallery's selection share: pick a collection or name a new one.
 */
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { MAX_COLLECTION_NAME } from '../../../../contract/media-links';
import { Button } from '../../components/button';
import { queryClient } from '../live';
import { reasonOf } from './generation-messages';
import { createCollection, listCollections, type CollectionView, type MediaItemView } from './media-api';
import { addItemsToCollection } from './media-list';

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
