import { useRef, useState, type RefObject } from 'react';
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
  /** Put on the element that wraps the preview: it is scrolled into view when a result arrives. */
  ref: RefObject<HTMLDivElement | null>;
  choose: (item: MediaItemView) => void;
  /** Give to the gallery: deleting the chosen result falls back to the newest. */
  onDeleted: (item: MediaItemView) => void;
}

const previewOf = (item: MediaItemView): PreviewMedia => ({ url: item.url, prompt: item.prompt, mediaId: item.id });

/**
 * Which result a generator's preview shows: the newest one unless the user picks another, and each new result as
 * its job succeeds (brought into view and added to the gallery).
 */
export function useResultPreview({ filter, media, newest, onReady, onFailed }: ResultPreviewOptions): ResultPreview {
  const [chosen, setChosen] = useState<PreviewMedia | undefined>();
  const ref = useRef<HTMLDivElement>(null);

  useJobOutcomes(filter, (outcome) => {
    if (outcome.status === 'succeeded') {
      setChosen({ url: outcome.url, prompt: outcome.job.prompt, mediaId: outcome.mediaId });
      onReady(outcome.job.prompt);
      reveal(ref.current);
      void media.refresh();
    } else {
      onFailed(outcome.error);
    }
  });

  const shown = chosen ?? (newest ? previewOf(newest) : undefined);
  return {
    shown,
    shownItem: shown?.mediaId ? media.items.find((i) => i.id === shown.mediaId) : undefined,
    ref,
    choose: (item) => setChosen(previewOf(item)),
    onDeleted: (item) => {
      if (chosen?.mediaId === item.id) setChosen(undefined);
    },
  };
}
