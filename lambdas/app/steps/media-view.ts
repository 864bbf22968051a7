import type { MediaItemView } from '../../../contract/schemas';
import type { MediaItem } from '../../ports/jobs';
import type { MediaStore } from '../../ports/media-store';
import { MEDIA_URL_SECONDS, mediaUrls } from './media-urls';

/** A share link's public address. */
export const shareUrl = (appUrl: string, token: string) => `${appUrl.replace(/\/+$/, '')}/s/${token}`;

/** A media item as its owner sees it: presigned links, its star, its share link, (videos) its poster, what it cost. */
export async function mediaView(store: MediaStore, appUrl: string, i: MediaItem): Promise<MediaItemView> {
  const [urls, posterUrl] = await Promise.all([mediaUrls(store, i), i.posterKey ? store.presignGet(i.posterKey, MEDIA_URL_SECONDS) : undefined]);
  return {
    id: i.id,
    type: i.type,
    prompt: i.prompt,
    model: i.model,
    options: i.options,
    createdAt: i.createdAt,
    ...urls,
    favorite: i.favorite === true,
    ...(i.shareToken ? { shareUrl: shareUrl(appUrl, i.shareToken), sharePrompt: i.sharePrompt === true } : {}),
    ...(posterUrl ? { posterUrl } : {}),
    ...(i.durationSeconds !== undefined ? { durationSeconds: i.durationSeconds } : {}),
    ...(i.width !== undefined ? { width: i.width } : {}),
    ...(i.height !== undefined ? { height: i.height } : {}),
    ...(i.credits !== undefined ? { credits: i.credits } : {}),
  };
}
