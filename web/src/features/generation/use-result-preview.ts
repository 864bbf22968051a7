import { useEffect, useMemo, useRef, useState, type RefObject } from 'react';
import { api, ApiError } from '../../lib/api-client';
import { useSession } from '../auth';
import { STORAGE_KEYS, storedValue } from '../../lib/browser-storage';
import { useJobOutcomes } from './jobs';
import type { JobFilter } from './followed-jobs';
import type { MediaItemView } from './media-api';
import { reveal } from './reveal';
import type { MediaList } from './media-list';

/** What a generator's preview shows. */
export interface PreviewMedia {
  url: string;
  prompt: string;
  mediaId?: string;
}

export interface ResultPreviewOptions {
  /** Which generator this is ('image', 'wan', ...): the picked preview is kept per user and generator. */
  generator: string;
  /** The page's jobs. */
  filter: JobFilter;
  /** The page's gallery list, refreshed when a job succeeds. */
  media: MediaList;
  /** Shown while the user has chosen nothing. */
  newest: MediaItemView | undefined;
  /** A job succeeded: its result is now shown. */
  onReady: (prompt: string) => void;
  /** A job failed, with the message to show. */
  onFailed: (error: string) => void;
}

export interface ResultPreview {
  /** The chosen result, or the newest one. */
  shown: PreviewMedia | undefined;
  /** The gallery item shown, once the list holds it (for its download link). */
  shownItem: MediaItemView | undefined;
  /** The last job's failure (its reason and the credits refunded), shown in the preview's place until dismissed. */
  failure: string | undefined;
  dismissFailure: () => void;
  /** A cancel the user chose, in the server's words (what was refunded): news, not a failure; kept until dismissed. */
  canceled: string | undefined;
  dismissCanceled: () => void;
  /** Put on the element that wraps the preview: it is scrolled into view when a result arrives. */
  ref: RefObject<HTMLDivElement | null>;
  choose: (item: MediaItemView) => void;
  /** Give to the gallery: deleting the chosen result falls back to the newest. */
  onDeleted: (item: MediaItemView) => void;
}

const previewOf = (item: MediaItemView): PreviewMedia => ({ url: item.url, prompt: item.prompt, mediaId: item.id });

/**
 * The spec's `currentImage`, kept across reloads as a media id (its URL expires; the id does not), per user and
 * generator, in localStorage (`STORAGE_KEYS.pickedMedia`).
 */
function pickedStore(owner: string | undefined, generator: string) {
  const stored = owner ? storedValue(STORAGE_KEYS.pickedMedia(owner, generator)) : undefined;
  return {
    read: () => stored?.get(),
    write: (id: string | undefined) => stored?.set(id || undefined),
  };
}

/**
 * Which result a generator's preview shows: the newest one unless the user picks another (kept across reloads),
 * each new result as its job succeeds (brought into view below the sticky header, and added to the gallery), and a
 * failure in the preview's place, so an older result is never taken for the answer.
 */
export function useResultPreview({ generator, filter, media, newest, onReady, onFailed }: ResultPreviewOptions): ResultPreview {
  const { user } = useSession();
  const picked = useMemo(() => pickedStore(user?.sub, generator), [user?.sub, generator]);
  const [chosen, setChosen] = useState<PreviewMedia | undefined>();
  const [failure, setFailure] = useState<string | undefined>();
  const [canceled, setCanceled] = useState<string | undefined>();
  const ref = useRef<HTMLDivElement>(null);
  const storedId = picked.read();

  // Restore the picked result once: from the loaded list, else by its id (older than the first page); gone: forget it.
  const restored = useRef<string | undefined>(undefined);
  useEffect(() => {
    if (!storedId || restored.current === storedId || chosen) return;
    const inList = media.items.find((i) => i.id === storedId);
    if (inList) {
      restored.current = storedId;
      setChosen(previewOf(inList));
      return;
    }
    if (media.status === 'loading') return;
    restored.current = storedId;
    const controller = new AbortController();
    api
      .getMedia({ params: { id: storedId }, signal: controller.signal })
      .then((item) => setChosen((c) => c ?? previewOf(item)))
      .catch((err: unknown) => {
        if (err instanceof ApiError && (err.status === 404 || err.status === 400)) picked.write(undefined);
      });
    return () => controller.abort();
  }, [storedId, media.items, media.status, chosen, picked]);

  useJobOutcomes(filter, (outcome) => {
    if (outcome.status === 'succeeded') {
      setChosen({ url: outcome.url, prompt: outcome.job.prompt, mediaId: outcome.mediaId });
      setFailure(undefined);
      // A batch that delivered part of its images says how many failed and were refunded, above the result.
      setCanceled(outcome.note);
      picked.write(outcome.mediaId);
      onReady(outcome.job.prompt);
      void media.refresh();
    } else if (outcome.status === 'canceled') {
      // The preview keeps what it showed; the cancel is told beside it.
      setCanceled(outcome.error);
      return;
    } else {
      setCanceled(undefined);
      setFailure(outcome.error);
      onFailed(outcome.error);
    }
    reveal(ref.current);
  });

  const shown = chosen ?? (newest ? previewOf(newest) : undefined);
  return {
    shown,
    shownItem: shown?.mediaId ? media.items.find((i) => i.id === shown.mediaId) : undefined,
    failure,
    dismissFailure: () => setFailure(undefined),
    canceled,
    dismissCanceled: () => setCanceled(undefined),
    ref,
    choose: (item) => {
      setChosen(previewOf(item));
      setFailure(undefined);
      picked.write(item.id);
    },
    onDeleted: (item) => {
      if (chosen?.mediaId === item.id) setChosen(undefined);
      if (storedId === item.id) picked.write(undefined);
    },
  };
}
