import { randomBytes } from 'node:crypto';
import { Messages } from '../../contract/errors';
import type { ShareMediaRequest, ShareMediaResponse } from '../../contract/schemas';
import { NotFound } from '../domain/errors';
import type { MediaIndex } from '../ports/jobs';
import { shareUrl } from './steps/media-view';

export interface ShareMediaDeps {
  media: MediaIndex;
  appUrl: string;
  now: () => Date;
  /** 16 random bytes in base64url (tests may fix it). */
  newToken?: () => string;
}

/** 128 bits from the system's CSPRNG: a link nobody can guess or enumerate. */
const randomToken = () => randomBytes(16).toString('base64url');

/**
 * POST /api/media/{id}/share: a public link to one of the caller's results; the page shows the prompt only when
 * `showPrompt` (private by default). Sharing again keeps the link and changes only that choice.
 */
export async function shareMedia(deps: ShareMediaDeps, owner: string, id: string, req: ShareMediaRequest): Promise<ShareMediaResponse> {
  const share = await deps.media.share(owner, id, {
    token: (deps.newToken ?? randomToken)(),
    owner,
    mediaId: id,
    showPrompt: req.showPrompt === true,
    createdAt: deps.now().toISOString(),
  });
  if (!share) throw new NotFound(Messages.mediaNotFound);
  return { url: shareUrl(deps.appUrl, share.token), showPrompt: share.showPrompt };
}

/** DELETE /api/media/{id}/share: the link answers 404 from now on. An item that is not shared (or not the caller's): 404. */
export async function unshareMedia(deps: Pick<ShareMediaDeps, 'media'>, owner: string, id: string): Promise<void> {
  if (!(await deps.media.unshare(owner, id))) throw new NotFound(Messages.mediaNotFound);
}
