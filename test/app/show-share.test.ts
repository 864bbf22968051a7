/**
 * The public page of a share link: what a pasted link previews (Open Graph and Twitter tags) and what the page plays,
 * for an image and for a video with and without its poster; a token that names nothing is not found.
 */
import { REAL_ESRGAN_MODEL } from '../../contract/models/upscale';
import { shareMedia } from '../../lambdas/app/share-media';
import { showSharePage } from '../../lambdas/app/show-share';
import type { MediaItem } from '../../lambdas/ports/jobs';
import { testClock } from '../support/fakes/clock';
import { MemoryMedia } from '../support/fakes/jobs';
import { mediaItem } from '../support/fakes/media';
import { MemoryMediaStore } from '../support/fakes/media-store';

const APP = 'https://app.example.com';

async function pageOf(extra: Partial<MediaItem>): Promise<{ html: string; url: string }> {
  const media = new MemoryMedia();
  media.add(mediaItem('u1', 'a', extra));
  const { url } = await shareMedia({ media, appUrl: APP, now: testClock().now }, 'u1', 'a', {});
  const page = await showSharePage({ media, store: new MemoryMediaStore(), appUrl: APP }, url.split('/s/')[1]!);
  if (!page.found) throw new Error('the shared item has no page');
  return { html: page.html, url };
}

const meta = (html: string) => [...html.matchAll(/<meta (?:property|name)="([^"]+)" content="([^"]*)">/g)].map((m) => [m[1], m[2]]);

describe('showSharePage', () => {
  it('shows an image as an <img> of its size, previewed large by the image itself', async () => {
    const { html, url } = await pageOf({ width: 768, height: 512 });
    expect(meta(html)).toEqual(
      expect.arrayContaining([
        ['og:type', 'website'],
        ['og:title', 'An image made with SDXL'],
        ['og:image', `${url}/media`],
        ['og:image:type', 'image/png'],
        ['og:image:width', '768'],
        ['og:image:height', '512'],
        ['twitter:card', 'summary_large_image'],
        ['twitter:image', `${url}/media`],
      ]),
    );
    expect(html).toContain(`<img class="media" src="${url}/media" alt="An image made with SDXL" width="768" height="512">`);
    expect(html).not.toContain('og:video');
  });

  it('shows a video as a <video> with its poster, previewed large by the poster', async () => {
    const { html, url } = await pageOf({ type: 'video', posterKey: 'users/u1/videos/a-poster.jpg', width: 1280, height: 720 });
    expect(meta(html)).toEqual(
      expect.arrayContaining([
        ['og:type', 'video.other'],
        ['og:title', 'A video made with Pixverse v4.5'],
        ['og:image', `${url}/poster`],
        ['og:video', `${url}/media`],
        ['og:video:type', 'video/mp4'],
        ['og:video:width', '1280'],
        ['og:video:height', '720'],
        ['twitter:card', 'summary_large_image'],
        ['twitter:image', `${url}/poster`],
      ]),
    );
    expect(html).toContain(`<video class="media" src="${url}/media" controls playsinline preload="metadata" poster="${url}/poster" aria-label="A video made with Pixverse v4.5"></video>`);
    expect(html).not.toContain('og:image:type');
  });

  it('previews a video without a poster as a summary, with no picture', async () => {
    const { html } = await pageOf({ type: 'video' });
    const tags = meta(html);
    expect(tags).toContainEqual(['twitter:card', 'summary']);
    expect(tags.map(([name]) => name)).not.toContain('og:image');
    expect(tags.map(([name]) => name)).not.toContain('twitter:image');
    expect(html).not.toContain(' poster=');
  });

  it('labels an upscale with the model that made its file, not as AI-generated with "Upscale"', async () => {
    const { html } = await pageOf({ width: 1536, height: 1024, model: REAL_ESRGAN_MODEL.id, createdAt: '2026-03-03T12:00:00.000Z' });
    const description = meta(html).find(([k]) => k === 'og:description')?.[1];
    expect(description).toMatch(/^Upscaled with Real-ESRGAN on /);
    expect(html).not.toContain('AI-generated with Upscale');
  });

  it('finds nothing for a token that names no share', async () => {
    const page = await showSharePage({ media: new MemoryMedia(), store: new MemoryMediaStore(), appUrl: APP }, 'A'.repeat(22));
    expect(page).toEqual({ found: false });
  });
});
