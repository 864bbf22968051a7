/** What the three public share routes answer alike: the not-found page, how long an answer may be kept, the file's 302. */
import { routeById } from '../../contract/routes';
import { NOT_FOUND_PAGE, SHARE_URL_SECONDS, sharedFile } from '../app/show-share';
import { showShareDeps } from '../wiring/deps';
import { publicRoute, type HttpResult } from './http';

/** A revoked link must stop working at once: nothing about a missing share is kept by CloudFront or a browser. */
export const SHARE_NOT_FOUND: HttpResult = { status: 404, html: NOT_FOUND_PAGE, headers: { 'cache-control': 'no-store' } };

/**
 * A live share: browsers ask again each time (a revoke shows at once), a shared cache may keep it a minute. The file's
 * 302 points at a URL signed for SHARE_URL_SECONDS (a minute): a browser may reuse the redirect for half of that, so the
 * URL it follows still has time to load; no shared cache may keep it.
 */
export const SHARE_PAGE_CACHE = { 'cache-control': 'public, max-age=0, s-maxage=60, must-revalidate', 'x-robots-tag': 'noindex' };
const SHARE_FILE_CACHE = { 'cache-control': `private, max-age=${SHARE_URL_SECONDS / 2}` };

/** GET /s/{token}/media or /poster: a 302 to a fresh presigned URL of the shared file, or the 404 page. */
export function sharedFileRoute(id: 'shareFile' | 'sharePoster', which: 'media' | 'poster') {
  return publicRoute(
    routeById(id),
    async (req) => {
      const file = await sharedFile(showShareDeps(), req.params.token, which);
      return file.found ? { redirect: file.url, headers: SHARE_FILE_CACHE } : SHARE_NOT_FOUND;
    },
    { onInvalidInput: () => SHARE_NOT_FOUND },
  );
}
