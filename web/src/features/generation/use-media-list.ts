import { useCallback, useEffect, useRef, useState } from 'react';
import { deleteMedia, listMedia, type MediaItemView, type MediaType } from './media-api';
import { reasonOf } from './generation-messages';
import { liveChannel } from '../live';

/** Download and view links are presigned for an hour: reload the list before they run out. */
const STALE_AFTER_MS = 45 * 60 * 1000;
/** With a type filter a server page can hold few matching items: read on until the grid has this many. */
const MIN_FILL = 12;
const MAX_PAGES_PER_LOAD = 5;

export interface MediaListState {
  items: MediaItemView[];
  nextCursor: string | undefined;
  status: 'loading' | 'ready' | 'error';
  /** Why the first page could not be loaded. */
  loadError: string | undefined;
  loadingMore: boolean;
  /** Why the next page could not be loaded. */
  moreError: string | undefined;
}

export interface MediaList extends MediaListState {
  reload(): void;
  loadMore(): void;
  /** Re-reads the first page and merges it in (after a job ends), keeping pages already loaded. */
  refresh(): Promise<void>;
  /** Removes an item from the list at once, then on the server; puts it back and rethrows if that fails. */
  remove(id: string): Promise<void>;
}

function newestFirst(a: MediaItemView, b: MediaItemView): number {
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0;
}

function merge(fresh: MediaItemView[], old: MediaItemView[]): MediaItemView[] {
  const byId = new Map<string, MediaItemView>();
  for (const item of [...fresh, ...old]) if (!byId.has(item.id)) byId.set(item.id, item);
  return [...byId.values()].sort(newestFirst);
}

const INITIAL: MediaListState = {
  items: [],
  nextCursor: undefined,
  status: 'loading',
  loadError: undefined,
  loadingMore: false,
  moreError: undefined,
};

/** The user's results (optionally only images or videos), newest first, a page at a time. */
export function useMediaList(type?: MediaType): MediaList {
  const [state, setState] = useState<MediaListState>(INITIAL);
  const stateRef = useRef(state);
  stateRef.current = state;
  // Bumped by every full (re)load, so answers to an older load are dropped.
  const generation = useRef(0);
  const loadedAt = useRef(0);
  const mounted = useRef(true);

  const fetchFilled = useCallback(
    async (cursor: string | undefined) => {
      const items: MediaItemView[] = [];
      let next = cursor;
      for (let page = 0; page < MAX_PAGES_PER_LOAD; page++) {
        const res = await listMedia({ type, cursor: next });
        items.push(...res.items);
        next = res.nextCursor;
        if (!next || items.length >= MIN_FILL) break;
      }
      return { items, nextCursor: next };
    },
    [type],
  );

  const reload = useCallback(() => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, status: s.status === 'ready' ? 'ready' : 'loading', loadError: undefined, moreError: undefined }));
    fetchFilled(undefined).then(
      (page) => {
        if (!mounted.current || mine !== generation.current) return;
        loadedAt.current = Date.now();
        setState({ ...INITIAL, status: 'ready', items: page.items, nextCursor: page.nextCursor });
      },
      (err: unknown) => {
        if (!mounted.current || mine !== generation.current) return;
        setState((s) => ({ ...s, status: s.status === 'ready' ? 'ready' : 'error', loadError: reasonOf(err) }));
      },
    );
  }, [fetchFilled]);

  const loadMore = useCallback(() => {
    const { nextCursor, loadingMore } = stateRef.current;
    if (!nextCursor || loadingMore) return;
    const mine = generation.current;
    setState((s) => ({ ...s, loadingMore: true, moreError: undefined }));
    fetchFilled(nextCursor).then(
      (page) => {
        if (!mounted.current || mine !== generation.current) return;
        setState((s) => ({ ...s, loadingMore: false, items: merge(s.items, page.items), nextCursor: page.nextCursor }));
      },
      (err: unknown) => {
        if (!mounted.current || mine !== generation.current) return;
        setState((s) => ({ ...s, loadingMore: false, moreError: reasonOf(err) }));
      },
    );
  }, [fetchFilled]);

  const refresh = useCallback(async () => {
    if (stateRef.current.status !== 'ready') return reload();
    const mine = generation.current;
    try {
      const page = await listMedia({ type });
      if (!mounted.current || mine !== generation.current) return;
      // Pages already read stay; their cursor still leads on from the oldest item shown.
      setState((s) => ({ ...s, items: merge(page.items, s.items), loadError: undefined }));
    } catch {
      // The list stays as it was; the next refresh or reload catches up.
    }
  }, [reload, type]);

  const remove = useCallback(async (id: string) => {
    const item = stateRef.current.items.find((i) => i.id === id);
    setState((s) => ({ ...s, items: s.items.filter((i) => i.id !== id) }));
    try {
      await deleteMedia(id);
    } catch (err) {
      if (item && mounted.current) setState((s) => ({ ...s, items: merge(s.items, [item]) }));
      throw err;
    }
  }, []);

  useEffect(() => {
    mounted.current = true;
    reload();
    const onVisible = () => {
      if (document.visibilityState === 'visible' && loadedAt.current > 0 && Date.now() - loadedAt.current > STALE_AFTER_MS) reload();
    };
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      mounted.current = false;
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, [reload]);

  // Pushed changes of the media list (a result stored, an item deleted in any tab); a channel back up after a drop
  // re-reads the first page. `merge` keeps one row per id, so a refresh never duplicates one.
  useEffect(() => {
    const offMessage = liveChannel.onMessage((m) => {
      if (m.type !== 'media' || (type && m.kind !== type)) return;
      if (m.change === 'removed') setState((s) => ({ ...s, items: s.items.filter((i) => i.id !== m.mediaId) }));
      else if (!stateRef.current.items.some((i) => i.id === m.mediaId)) void refresh();
    });
    const offState = liveChannel.onState((now, before) => {
      if (now === 'open' && before === 'down') void refresh();
    });
    return () => {
      offMessage();
      offState();
    };
  }, [refresh, type]);

  return { ...state, reload, loadMore, refresh, remove };
}
