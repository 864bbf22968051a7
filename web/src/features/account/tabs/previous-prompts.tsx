import { useEffect, useRef, useState } from 'react';
import { MODELS } from '../../../../../contract/models';
import { MAX_SEARCH_LENGTH } from '../../../../../contract/media-links';
import { Alert } from '../../../components/alert';
import { ButtonLink } from '../../../components/button-link';
import { useSession } from '../../auth';
import { type GalleryMessages, GenerationText, ManageCollection, MediaGallery, useActiveJobs, useCollections, useMediaList } from '../../generation';

const MESSAGES: GalleryMessages = {
  loadFailed: GenerationText.failedToFetchPrompts,
  moreFailed: GenerationText.failedToFetchPrompts,
  deleteFailed: GenerationText.failedToDeletePrompt,
  empty: GenerationText.noPreviousPrompts,
  emptyHint: 'Describe a picture or a clip and it appears here, with its prompt and settings to reuse.',
  emptyAction: (
    <div className="flex flex-wrap justify-center gap-2">
      <ButtonLink to="/generator" size="sm">
        Create an image
      </ButtonLink>
      <ButtonLink to="/video-generator" size="sm" variant="secondary">
        Make a video
      </ButtonLink>
    </div>
  ),
};

const everyJob = () => true;

/** `value` once it has stayed the same for `ms`. */
function useDebounced<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/**
 * My Account > Previous Prompts (the default tab): the user's images and videos together, newest first, each
 * with its prompt, Download and Delete; videos play in a player. Jobs still running elsewhere are followed here
 * too, and the list catches up when one ends.
 */
type TypeFilter = 'all' | 'image' | 'video';

const selectClasses = 'rounded-control border border-line bg-surface px-2 py-1.5 text-sm text-ink';

function PreviousPromptsTab() {
  const { status } = useSession();
  const [type, setType] = useState<TypeFilter>('all');
  const [model, setModel] = useState('');
  const [favorites, setFavorites] = useState(false);
  const [collection, setCollection] = useState('');
  const collections = useCollections();
  const chosen = collections.find((c) => c.id === collection);
  const [searchText, setSearchText] = useState('');
  // Asked for once typing pauses, not at every key.
  const search = useDebounced(searchText.trim(), 300);
  // The server filters (GET /api/media?type&model&favorite&q&collection): each filter is its own list, a page at a time.
  const media = useMediaList(type === 'all' ? undefined : type, {
    model: model || undefined,
    favorite: favorites || undefined,
    search: search || undefined,
    collection: collection || undefined,
  });
  const models = MODELS.filter((m) => !m.upcoming && (type === 'all' || m.kind === type));
  const running = useActiveJobs(everyJob);
  const before = useRef(running.length);

  const { refresh } = media;
  useEffect(() => {
    if (running.length < before.current) void refresh();
    before.current = running.length;
  }, [running.length, refresh]);

  const filtered = type !== 'all' || model !== '' || favorites || search !== '' || collection !== '';
  if (status === 'signedOut') return <Alert variant="error">{GenerationText.signInToAccessPrompts}</Alert>;

  return (
    <MediaGallery
      title="Previous Prompts"
      description={
        <>
          <p>Your generated images and videos, newest first.</p>
          {running.length > 0 && (
            <p role="status" className="mt-2">
              {running.length === 1
                ? 'One generation is still running. It will appear here when it is ready.'
                : `${running.length} generations are still running. They will appear here when they are ready.`}
            </p>
          )}
        </>
      }
      list={media}
      messages={filtered ? { ...MESSAGES, empty: 'Nothing matches these filters.', emptyHint: 'Try fewer words or clear a filter.', emptyAction: undefined } : MESSAGES}
      columns="mixed"
      selectable
      collection={chosen}
      toolbar={
        <div className="mb-4 flex flex-wrap items-center gap-3" role="group" aria-label="Filters">
          <label className="flex w-full items-center gap-2 text-sm text-ink-muted sm:w-auto">
            Search
            <input
              type="search"
              className={`${selectClasses} min-w-0 flex-1 sm:w-64`}
              placeholder="Words from your prompts"
              maxLength={MAX_SEARCH_LENGTH}
              value={searchText}
              onChange={(e) => setSearchText(e.target.value)}
            />
          </label>
          <label className="flex items-center gap-2 text-sm text-ink-muted">
            Type
            <select className={selectClasses} value={type} onChange={(e) => setType(e.target.value as TypeFilter)}>
              <option value="all">All</option>
              <option value="image">Images</option>
              <option value="video">Videos</option>
            </select>
          </label>
          <label className="flex items-center gap-2 text-sm text-ink-muted">
            Model
            <select className={selectClasses} value={model} onChange={(e) => setModel(e.target.value)}>
              <option value="">All models</option>
              {models.map((m) => (
                <option key={m.slug} value={m.slug}>
                  {m.name}
                </option>
              ))}
            </select>
          </label>
          <label className="flex items-center gap-2 text-sm text-ink-muted">
            <input type="checkbox" checked={favorites} onChange={(e) => setFavorites(e.target.checked)} />
            Favourites
          </label>
          <label className="flex items-center gap-2 text-sm text-ink-muted">
            Collection
            <select className={selectClasses} value={collection} onChange={(e) => setCollection(e.target.value)}>
              <option value="">All results</option>
              {collections.map((c) => (
                <option key={c.id} value={c.id}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
          {chosen && <ManageCollection key={chosen.id} collection={chosen} onDeleted={() => setCollection('')} />}
        </div>
      }
    />
  );
}

export default PreviousPromptsTab;
