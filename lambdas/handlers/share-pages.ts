/** What the three public share routes answer alike: the not-found page, and how long an answer may be kept. */
import { NOT_FOUND_PAGE } from '../app/show-share';
import type { HttpResult } from './http';

/** A revoked link must stop working at once: nothing about a missing share is kept by CloudFront or a browser. */
export const SHARE_NOT_FOUND: HttpResult = { status: 404, html: NOT_FOUND_PAGE, headers: { 'cache-control': 'no-store' } };

/**
 * A live share: browsers ask again each time (a revoke shows at once), a shared cache may keep it a minute. The file's
 * 302 points at a URL signed for a few minutes: a browser may reuse it for one minute, no shared cache may keep it.
 */
export const SHARE_PAGE_CACHE = { 'cache-control': 'public, max-age=0, s-maxage=60, must-revalidate', 'x-robots-tag': 'noindex' };
export const SHARE_FILE_CACHE = { 'cache-control': 'private, max-age=60' };
