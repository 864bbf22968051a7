/**
 * The user's results (optionally only images or videos), newest first, a page at a time: one TanStack infinite
 * query per filter (`['media', 'all' | 'image' | 'video']`) in the app's query client. Pushes of the media list
 * (a result stored, an item deleted in any tab) update every cached list; a channel back up after a drop re-reads
 * (both handed over by app/live-handlers.ts).
 */
import { useInfiniteQuery, type InfiniteData, type QueryKey } from '@tanstack/react-query';
import { useCallback } from 'react';
import type { LiveMessage } from '../../../../contract/live';
import { MEDIA_LIST_REFRESH_MS } from '../../../../contract/media-links';
import { queryClient } from '../../lib/query-client';
import { reasonOf } from './generation-messages';
import { addToCollection, deleteMedia, removeFromCollection, listMedia, setFavorite, shareMedia, unshareMedia, type MediaFilter, type MediaItemView, type MediaType } from './media-api';

/**
 * Download and view links are presigned for MEDIA_URL_SECONDS (a quarter of an hour): a list older than this is read
 * again when the tab is shown, and a shown list is read again on this interval, so its links never lapse.
 */
const STALE_AFTER_MS = MEDIA_LIST_REFRESH_MS;
/** With a type filter a server page can hold few matching items: read on until the grid has this many. */
const MIN_FILL = 12;
const MAX_PAGES_PER_LOAD = 5;

interface MediaPage {
  items: MediaItemView[];
  nextCursor: string | undefined;
}
type MediaPages = InfiniteData<MediaPage, string | undefined>;

const ALL_MEDIA: QueryKey = ['media'];
/** `['media', 'all' | 'image' | 'video']`, with the model, favourite, search and collection filters after it when set (My Account). */
const mediaKey = (type: MediaType | undefined, f: Omit<MediaFilter, 'type'> = {}) => {
  const search = f.search?.trim().toLowerCase();
  if (!f.model && !f.favorite && !search && !f.collection) return ['media', type ?? 'all'] as readonly string[];
  return [
    'media',
    type ?? 'all',
    f.model ?? 'any',
    f.favorite ? 'favorites' : 'all',
    ...(search ? [`search:${search}`] : []),
    ...(f.collection ? [collectionKeyPart(f.collection)] : []),
  ] as readonly string[];
};
const collectionKeyPart = (id: string) => `collection:${id}`;

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
  /** Reads the list again (after a job ends), keeping as many pages as are shown. */
  refresh(): Promise<void>;
  /** Removes an item from every list at once, then on the server; puts the lists back and rethrows if that fails. */
  remove(id: string): Promise<void>;
}

/** Changes one item in every cached list. */
function patchItem(id: string, patch: Partial<MediaItemView>): void {
  queryClient.setQueriesData<MediaPages>({ queryKey: ALL_MEDIA }, (d) =>
    d && { ...d, pages: d.pages.map((p) => ({ ...p, items: p.items.map((i) => (i.id === id ? { ...i, ...patch } : i)) })) },
  );
}

/** Stars or unstars a result in every list at once, then on the server; puts it back and rethrows if that fails. */
export async function toggleFavorite(item: MediaItemView): Promise<void> {
  const favorite = !item.favorite;
  patchItem(item.id, { favorite });
  try {
    await setFavorite(item.id, favorite);
  } catch (err) {
    patchItem(item.id, { favorite: item.favorite });
    throw err;
  }
  // The Favourites list gains or loses it.
  void queryClient.invalidateQueries({ queryKey: ALL_MEDIA, predicate: (q) => q.queryKey.includes('favorites') });
}

/** Shares a result (or changes whether its page shows the prompt); every list shows its link. */
export async function shareItem(item: MediaItemView, showPrompt: boolean): Promise<string> {
  const { url } = await shareMedia(item.id, showPrompt);
  patchItem(item.id, { shareUrl: url, sharePrompt: showPrompt });
  return url;
}

/**
 * Puts results in a collection, one request each; the lists filtered by that collection read again. Returns how many
 * went in and the first failure's reason, if any.
 */
export async function addItemsToCollection(collectionId: string, items: readonly MediaItemView[]): Promise<{ added: number; failure?: string }> {
  let added = 0;
  let failure: string | undefined;
  for (const item of items) {
    try {
      await addToCollection(collectionId, item.id);
      added++;
    } catch (err) {
      failure ??= reasonOf(err);
    }
  }
  void queryClient.invalidateQueries({ queryKey: ALL_MEDIA, predicate: (q) => q.queryKey.includes(collectionKeyPart(collectionId)) });
  return { added, ...(failure ? { failure } : {}) };
}

/**
 * Takes results out of a collection, one request each; each leaves the lists filtered by that collection at once.
 * Returns how many came out and the first failure's reason, if any.
 */
export async function removeItemsFromCollection(collectionId: string, items: readonly MediaItemView[]): Promise<{ removed: number; failure?: string }> {
  const inCollection = { queryKey: ALL_MEDIA, predicate: (q: { queryKey: QueryKey }) => q.queryKey.includes(collectionKeyPart(collectionId)) };
  let removed = 0;
  let failure: string | undefined;
  for (const item of items) {
    try {
      await removeFromCollection(collectionId, item.id);
      queryClient.setQueriesData<MediaPages>(inCollection, (d) => without(d, item.id));
      removed++;
    } catch (err) {
      failure ??= reasonOf(err);
    }
  }
  void queryClient.invalidateQueries(inCollection);
  return { removed, ...(failure ? { failure } : {}) };
}

/** Forgets the lists filtered by a deleted collection. */
export function forgetCollectionLists(collectionId: string): void {
  queryClient.removeQueries({ queryKey: ALL_MEDIA, predicate: (q) => q.queryKey.includes(collectionKeyPart(collectionId)) });
}

/** Revokes a result's link. */
export async function unshareItem(item: MediaItemView): Promise<void> {
  await unshareMedia(item.id);
  patchItem(item.id, { shareUrl: undefined, sharePrompt: undefined });
}

function newestFirst(a: MediaItemView, b: MediaItemView): number {
  return a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0;
}

/** One row per id, newest first, whatever pages overlap. */
function itemsOf(data: MediaPages | undefined): MediaItemView[] {
  const byId = new Map<string, MediaItemView>();
  for (const page of data?.pages ?? []) for (const item of page.items) if (!byId.has(item.id)) byId.set(item.id, item);
  return [...byId.values()].sort(newestFirst);
}

function without(data: MediaPages | undefined, id: string): MediaPages | undefined {
  return data && { ...data, pages: data.pages.map((p) => ({ ...p, items: p.items.filter((i) => i.id !== id) })) };
}

async function fetchFilled(filter: MediaFilter, cursor: string | undefined, signal: AbortSignal): Promise<MediaPage> {
  const items: MediaItemView[] = [];
  let next = cursor;
  for (let page = 0; page < MAX_PAGES_PER_LOAD; page++) {
    const res = await listMedia({ ...filter, cursor: next }, signal);
    items.push(...res.items);
    next = res.nextCursor;
    if (!next || items.length >= MIN_FILL) break;
  }
  return { items, nextCursor: next };
}

export function useMediaList(type?: MediaType, filter: Omit<MediaFilter, 'type'> = {}): MediaList {
  const { model, favorite, search, collection } = filter;
  const key = mediaKey(type, { model, favorite, search, collection });
  const query = useInfiniteQuery<MediaPage, unknown, MediaPages, readonly string[], string | undefined>(
    {
      queryKey: key,
      queryFn: ({ pageParam, signal }) => fetchFilled({ type, model, favorite, search, collection }, pageParam, signal),
      initialPageParam: undefined as string | undefined,
      getNextPageParam: (last) => last.nextCursor,
      staleTime: STALE_AFTER_MS,
      // TanStack's focus manager follows `visibilitychange`: a stale list (links about to expire) is read again.
      refetchOnWindowFocus: true,
      refetchInterval: STALE_AFTER_MS,
      // A page that mounts again reads the list again (a result may have been stored meanwhile).
      refetchOnMount: 'always',
    },
    queryClient,
  );
  const { refetch, fetchNextPage, hasNextPage, isFetchingNextPage } = query;
  const items = itemsOf(query.data);
  const nextCursor = query.data?.pages.at(-1)?.nextCursor;

  const reload = useCallback(() => void refetch(), [refetch]);
  const loadMore = useCallback(() => {
    if (hasNextPage && !isFetchingNextPage) void fetchNextPage();
  }, [fetchNextPage, hasNextPage, isFetchingNextPage]);
  const keyText = key.join('/');
  const refresh = useCallback(() => queryClient.invalidateQueries({ queryKey: keyText.split('/'), exact: true }), [keyText]);

  return {
    items,
    nextCursor,
    status: query.data ? 'ready' : query.isError ? 'error' : 'loading',
    loadError: !query.data && query.isError ? reasonOf(query.error) : undefined,
    loadingMore: isFetchingNextPage,
    moreError: query.isFetchNextPageError ? reasonOf(query.error) : undefined,
    reload,
    loadMore,
    refresh,
    remove: removeMedia,
  };
}

async function removeMedia(id: string): Promise<void> {
  await queryClient.cancelQueries({ queryKey: ALL_MEDIA });
  const before = queryClient.getQueriesData<MediaPages>({ queryKey: ALL_MEDIA });
  queryClient.setQueriesData<MediaPages>({ queryKey: ALL_MEDIA }, (d) => without(d, id));
  try {
    await deleteMedia(id);
  } catch (err) {
    for (const [key, data] of before) queryClient.setQueryData(key, data);
    throw err;
  }
}

/**
 * A pushed change of the media list (app/live-handlers.ts), in every cached list: a deletion is applied as is, a new
 * result makes the lists it belongs to read again (its links are presigned by GET /api/media). One row per id, so
 * nothing is duplicated.
 */
export function applyMediaPush(m: Extract<LiveMessage, { type: 'media' }>): void {
  if (m.change === 'removed') {
    queryClient.setQueriesData<MediaPages>({ queryKey: ALL_MEDIA }, (d) => without(d, m.mediaId));
    return;
  }
  for (const key of [mediaKey(undefined), mediaKey(m.kind)]) {
    const known = itemsOf(queryClient.getQueryData<MediaPages>(key)).some((i) => i.id === m.mediaId);
    if (!known) void queryClient.invalidateQueries({ queryKey: key, exact: true });
  }
  // Lists filtered by model or favourite (My Account) read again too.
  void queryClient.invalidateQueries({ queryKey: ALL_MEDIA, predicate: (q) => q.queryKey.length > 2 });
}

/** Every cached list reads again (the push channel is back after a drop: a change may have been missed). */
export function rereadMediaLists(): void {
  void queryClient.invalidateQueries({ queryKey: ALL_MEDIA });
}
