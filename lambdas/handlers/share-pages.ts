/** What the three public share routes answer alike: the not-found page, and how long an answer may be kept. */
import { NOT_FOUND_PAGE } from '../app/show-share';
import type { HttpResult } from './http';

/** A revoked link must stop working at once: nothing about a missing share is kept by CloudFront or a browser. */
export const SHARE_NOT_FOUND: HttpResult = { status: 404, html: NOT_FOUND_PAGE, headers: { 'cache-control': 'no-store' } };

/**
 * A live share may be kept a minute (a revoke is seen within it); the file redirects a little less than their presigned
 * URLs live. `private`: the 302's target is signed for one visit, not for a shared cache.
 */
export const SHARE_PAGE_CACHE = { 'cache-control': 'public, max-age=60', 'x-robots-tag': 'noindex' };
export const SHARE_FILE_CACHE = { 'cache-control': 'private, max-age=60' };
