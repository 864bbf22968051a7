import { aiGeneratedLabel } from '../../contract/ai-label';
import { MEDIA_KINDS, type MediaKind } from '../../contract/media-kinds';
import { madeWithOf, modelOfReplicate } from '../../contract/models';
import { SHARE_TOKEN } from '../../contract/schemas';
import type { MediaIndex, MediaItem } from '../ports/jobs';
import type { MediaStore } from '../ports/media-store';
import { shareUrl } from './steps/media-view';

export interface ShowShareDeps {
  media: MediaIndex;
  store: MediaStore;
  appUrl: string;
}

/** What a share link names: the item and whether its page shows the prompt; undefined when revoked, deleted or unknown. */
async function sharedItem(deps: ShowShareDeps, token: string): Promise<{ item: MediaItem; showPrompt: boolean } | undefined> {
  if (!SHARE_TOKEN.test(token)) return undefined;
  const share = await deps.media.shareOf(token);
  if (!share) return undefined;
  const item = await deps.media.get(share.owner, share.mediaId);
  // The item's own token must still be this one: a share left behind by a failed write names nothing.
  if (!item || item.shareToken !== token) return undefined;
  return { item, showPrompt: share.showPrompt };
}

/**
 * The presigned links behind /s/{token}/media and /poster live this long; each visit gets a fresh one. A link handed out
 * before Stop sharing keeps working until it expires (S3 cannot revoke a presigned URL), so this is how long a revoke
 * takes to stop the file: a minute, long enough for a browser to load the file it was just sent to.
 */
export const SHARE_URL_SECONDS = 60;

export type SharedFile = { found: false } | { found: true; url: string };

/** GET /s/{token}/media and /s/{token}/poster: where the file is now (a 302 to a fresh presigned URL). */
export async function sharedFile(deps: ShowShareDeps, token: string, which: 'media' | 'poster'): Promise<SharedFile> {
  const shared = await sharedItem(deps, token);
  const key = shared && (which === 'media' ? shared.item.key : shared.item.posterKey);
  if (!key) return { found: false };
  return { found: true, url: await deps.store.presignGet(key, SHARE_URL_SECONDS) };
}

/** The day an output was made, the same for every visitor (a page served by the API knows no visitor's time zone). */
const madeOn = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' });

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** The page's look: the site's tokens (web/src/styles/theme.css), inline since the page is served by the API. */
const STYLE = `
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:flex;flex-direction:column;background:#0a0a10;color:#ededf5;
font-family:ui-sans-serif,system-ui,sans-serif,"Apple Color Emoji","Segoe UI Emoji";line-height:1.5}
header{padding:16px 24px;border-bottom:1px solid #262635}header a{color:#ededf5;font-weight:600;text-decoration:none}
main{flex:1;display:flex;flex-direction:column;align-items:center;justify-content:center;padding:32px 16px;text-align:center}
.media{max-width:min(100%,1024px);max-height:75vh;border-radius:12px;border:1px solid #262635;background:#12121a}
.kicker{font-size:14px;font-weight:600;color:#b9a8ff;margin:0}h1{margin:8px 0 0;font-size:30px;letter-spacing:-.02em}
p{color:#a6a6bd;max-width:48rem}.button{display:inline-block;margin-top:32px;padding:10px 18px;border-radius:10px;background:#6d4cf5;
color:#fff;font-weight:600;text-decoration:none}.button:hover{background:#7655fa}`;

function page(o: { title: string; head?: string; body: string }): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(o.title)}</title>${o.head ?? ''}<style>${STYLE}</style></head>
<body><header><a href="/">Framewright</a></header><main>${o.body}</main></body></html>`;
}

/** The site's not-found page (web/src/pages/not-found-page.tsx), as the API serves it for a share link that names nothing. */
export const NOT_FOUND_PAGE = page({
  title: 'Page not found · Framewright',
  head: '<meta name="robots" content="noindex">',
  body: `<p class="kicker">404</p><h1>Page not found</h1><p>The page you are looking for does not exist or has moved.</p>
<a class="button" href="/">Back to home</a>`,
});


/** What a page shows of its item: the file's and poster's addresses there, and the words that describe it. */
interface Shown {
  item: MediaItem;
  mediaUrl: string;
  posterUrl?: string;
  alt: string;
}

/** The Open Graph tags of the file's size (og:image:width, og:video:height...), when saving probed it. */
const sizeTags = (prefix: string, { width, height }: MediaItem): Array<[string, string]> =>
  width && height ? [[`${prefix}:width`, String(width)], [`${prefix}:height`, String(height)]] : [];

/**
 * The share page's media view: how each kind reads, previews (its Open Graph tags and the picture a link preview
 * shows, if any) and plays on the page.
 */
const SHARE_VIEWS: Record<MediaKind, { what: string; ogType: string; view: (s: Shown) => { tags: Array<[string, string]>; previewImage?: string; element: string } }> = {
  image: {
    what: 'An image',
    ogType: 'website',
    view: ({ item, mediaUrl, alt }) => ({
      tags: [['og:image', mediaUrl], ['og:image:type', MEDIA_KINDS.image.contentType], ...sizeTags('og:image', item)],
      previewImage: mediaUrl,
      element: `<img class="media" src="${escape(mediaUrl)}" alt="${escape(alt)}"${item.width && item.height ? ` width="${item.width}" height="${item.height}"` : ''}>`,
    }),
  },
  video: {
    what: 'A video',
    ogType: 'video.other',
    view: ({ item, mediaUrl, posterUrl, alt }) => ({
      tags: [...(posterUrl ? [['og:image', posterUrl] as [string, string]] : []), ['og:video', mediaUrl], ['og:video:type', MEDIA_KINDS.video.contentType], ...sizeTags('og:video', item)],
      ...(posterUrl ? { previewImage: posterUrl } : {}),
      element: `<video class="media" src="${escape(mediaUrl)}" controls playsinline preload="metadata"${posterUrl ? ` poster="${escape(posterUrl)}"` : ''} aria-label="${escape(alt)}"></video>`,
    }),
  },
};

export type SharePage = { found: false } | { found: true; html: string };

/**
 * GET /s/{token}: the shared image or video as an HTML page with Open Graph and Twitter tags (a pasted link previews:
 * crawlers run no script). Media and poster point at /s/{token}/media and /poster, which never expire while the share
 * lives. The prompt is shown only when the owner chose to.
 */
export async function showSharePage(deps: ShowShareDeps, token: string): Promise<SharePage> {
  const shared = await sharedItem(deps, token);
  if (!shared) return { found: false };
  const { item, showPrompt } = shared;
  const url = shareUrl(deps.appUrl, token);
  const mediaUrl = `${url}/media`;
  const posterUrl = item.posterKey ? `${url}/poster` : undefined;
  const model = modelOfReplicate(item.model)?.name ?? 'Framewright';
  const kind = SHARE_VIEWS[item.type];
  const title = showPrompt && item.prompt.trim() ? item.prompt.trim().slice(0, 120) : `${kind.what} made with ${model}`;
  // Said where people look, not only in the file's content credentials: the page and its link previews.
  const made = madeWithOf(item.model);
  const label = aiGeneratedLabel(made?.name ?? model, madeOn.format(new Date(item.createdAt)), made?.operation);
  const description = `${label}. Shared from Framewright.`;
  const alt = showPrompt && item.prompt.trim() ? item.prompt.trim() : `${kind.what} made with ${model}`;
  const shown = kind.view({ item, mediaUrl, alt, ...(posterUrl ? { posterUrl } : {}) });
  const tags: Array<[string, string]> = [
    ['og:type', kind.ogType],
    ['og:site_name', 'Framewright'],
    ['og:title', title],
    ['og:description', description],
    ['og:url', url],
    ...shown.tags,
  ];
  const twitter: Array<[string, string]> = [
    ['twitter:card', shown.previewImage ? 'summary_large_image' : 'summary'],
    ['twitter:title', title],
    ['twitter:description', description],
    ...(shown.previewImage ? [['twitter:image', shown.previewImage] as [string, string]] : []),
  ];
  const head = [
    `<meta name="description" content="${escape(description)}">`,
    '<meta name="ai-generated" content="true">',
    `<link rel="canonical" href="${escape(url)}">`,
    ...tags.map(([p, c]) => `<meta property="${p}" content="${escape(c)}">`),
    ...twitter.map(([n, c]) => `<meta name="${n}" content="${escape(c)}">`),
  ].join('\n');
  const prompt = showPrompt && item.prompt.trim() ? `<p data-testid="share-prompt">${escape(item.prompt.trim())}</p>` : '';
  const body = `${shown.element}<p data-testid="ai-label">${escape(label)}</p>${prompt}<a class="button" href="/">Make your own</a>`;
  return { found: true, html: page({ title: `${title} · Framewright`, head, body }) };
}
