/**
 * How long the gallery's presigned view and download links live (lambdas/app/steps/media-urls.ts), and how soon the
 * web reads its list again (web/src/features/generation/media-list.ts). A link copied out of the gallery (or leaked in
 * a Referer) reaches the file for this long, so it is a quarter of an hour, not the hour it was: long enough to open,
 * play or download what the list shows, while the web refreshes a visible list every 10 minutes so its links never lapse.
 */
export const MEDIA_URL_SECONDS = 15 * 60;

/** The web's media list is read again this long after it was read (5 minutes before its links expire). */
export const MEDIA_LIST_REFRESH_MS = (MEDIA_URL_SECONDS - 5 * 60) * 1000;

/** The longest prompt search GET /api/media takes (`q`), in characters. */
export const MAX_SEARCH_LENGTH = 100;

/** A named collection's name is 1 to this many characters (POST /api/collections). */
export const MAX_COLLECTION_NAME = 60;

/** How many named collections a user may have. */
export const MAX_COLLECTIONS = 50;
