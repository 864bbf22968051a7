import { MEDIA_KINDS } from '../../../contract/media-kinds';
import { MEDIA_URL_SECONDS } from '../../../contract/media-links';
import type { JobKind, MediaItem } from '../../ports/jobs';
import type { MediaStore } from '../../ports/media-store';

export { MEDIA_URL_SECONDS };

/** The spec's download name: `{prompt, or 'prompt'}-{timestamp}.png|.mp4`. */
export function downloadName(prompt: string, createdAt: string, type: JobKind): string {
  const base = prompt.trim().replace(/[^\p{L}\p{N} _-]+/gu, '').replace(/\s+/g, ' ').trim().slice(0, 60) || 'prompt';
  return `${base}-${Date.parse(createdAt)}.${MEDIA_KINDS[type].extension}`;
}

/** A media item's short-lived view URL. */
export function mediaUrl(store: MediaStore, item: Pick<MediaItem, 'key'>): Promise<string> {
  return store.presignGet(item.key, MEDIA_URL_SECONDS);
}

/** A media item's view URL and its download URL (which names the file), and its poster's URL when it has one. */
export async function mediaUrls(store: MediaStore, item: MediaItem) {
  const [url, downloadUrl, posterUrl] = await Promise.all([
    mediaUrl(store, item),
    store.presignGet(item.key, MEDIA_URL_SECONDS, downloadName(item.prompt, item.createdAt, item.type)),
    item.posterKey ? mediaUrl(store, { key: item.posterKey }) : undefined,
  ]);
  return { url, downloadUrl, ...(posterUrl ? { posterUrl } : {}) };
}
