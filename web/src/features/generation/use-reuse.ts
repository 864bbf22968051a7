import { useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Messages } from '../../../../contract/errors';
import { api } from '../../lib/api-client';
import { reasonOf } from './generation-messages';
import type { MediaItemView } from './media-api';
import { readReuseParams, type ReuseUse } from './reuse-urls';

export interface ReuseHandlers {
  /** `?reuse=<id>&use=prompt|settings`: the result to fill the form from. */
  onReuse: (item: MediaItemView, use: ReuseUse) => void;
  /** `?startMedia=<id>`: an image result to start from (Animate), not uploaded again. */
  onStartMedia?: (item: MediaItemView) => void;
  onError: (message: string) => void;
}

/**
 * What a generator's URL asks it to fill in (reuseUrl, animateUrl): the media item is read by id (GET /api/media/{id},
 * the caller's own only) once per URL, and handed to the page.
 */
export function useReuseFromUrl({ onReuse, onStartMedia, onError }: ReuseHandlers): void {
  const [search] = useSearchParams();
  const { reuse, startMedia } = readReuseParams(search);
  const handlers = useRef({ onReuse, onStartMedia, onError });
  useEffect(() => {
    handlers.current = { onReuse, onStartMedia, onError };
  });
  const key = `${reuse?.id ?? ''}|${reuse?.use ?? ''}|${startMedia ?? ''}`;
  useEffect(() => {
    if (!reuse && !startMedia) return;
    const controller = new AbortController();
    const read = (id: string) => api.getMedia({ params: { id }, signal: controller.signal });
    const fail = (err: unknown) => {
      if (!controller.signal.aborted) handlers.current.onError(reasonOf(err));
    };
    if (reuse) {
      read(reuse.id)
        .then((item) => handlers.current.onReuse(item, reuse.use))
        .catch(fail);
    }
    if (startMedia && handlers.current.onStartMedia) {
      read(startMedia)
        .then((item) => (item.type === 'image' ? handlers.current.onStartMedia?.(item) : handlers.current.onError(Messages.startMediaNotImage)))
        .catch(fail);
    }
    return () => controller.abort();
    // One read per URL: `key` names what it asks for.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key]);
}
