/**
 * @jest-environment node
 */
/**
 * Builds the site (scripts/build-web.ts) into a temporary folder and reads each public page as a crawler or a link
 * preview does, before any script runs: its own title, description, canonical URL and Open Graph tags, its h1 and
 * main text; sitemap.xml and robots.txt; and, served as the embedded stack serves web/dist, 404 for unknown paths.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PUBLIC_PAGE_SOURCES, SITE_MANIFEST, type SiteManifest } from '../../contract/site';
import { staticSite } from '../../local/web';
import { execFileSync } from 'node:child_process';
import { PUBLIC_PAGE_TEXTS, staticHtmlProblems, staticText } from '../support/public-page-texts';

const EXPECTED = PUBLIC_PAGE_TEXTS;
const attr = (html: string, re: RegExp) => re.exec(html)?.[1];

/** The deployment's support address, which the server of the build writes into the pages. */
const SUPPORT = 'help@support.example';

let dist: string;
let site: SiteManifest;
let server: http.Server;
let origin: string;

beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-site-'));
  // `npm run build`'s own script, into a folder of this test's (the server bundle is ESM: a process of its own).
  const root = path.resolve(__dirname, '..', '..');
  execFileSync(process.execPath, [path.join(root, 'node_modules', 'tsx', 'dist', 'cli.mjs'), 'scripts/build-web.ts', '--out-dir', dist], { cwd: root, stdio: 'pipe' });
  site = JSON.parse(fs.readFileSync(path.join(dist, SITE_MANIFEST), 'utf8')) as SiteManifest;
  const web = staticSite(dist, { supportEmail: SUPPORT });
  server = http.createServer((req, res) => web.handle(req, res));
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}, 180_000);

afterAll(async () => {
  await new Promise((resolve) => server?.close(resolve));
  fs.rmSync(dist, { recursive: true, force: true });
});

describe('the prerendered site', () => {
  it('prerenders exactly the public pages', () => {
    expect(site.publicPaths.sort()).toEqual(Object.keys(PUBLIC_PAGE_SOURCES).sort());
    expect(Object.keys(EXPECTED).sort()).toEqual(site.publicPaths.sort());
  });

  it.each(Object.entries(EXPECTED))('%s: its own metadata, h1 and text in the HTML', async (pagePath, want) => {
    const res = await fetch(`${origin}${pagePath}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(attr(html, /<title>([^<]*)<\/title>/)).toBe(want.title);
    expect((html.match(/<title>/g) ?? []).length).toBe(1);
    const description = attr(html, /<meta name="description" content="([^"]+)"/);
    expect(description?.length).toBeGreaterThan(50);
    expect(attr(html, /<link rel="canonical" href="([^"]+)"/)).toBe(`${origin}${pagePath}`);
    expect(attr(html, /<meta property="og:title" content="([^"]+)"/)).toBe(want.title);
    expect(attr(html, /<meta property="og:url" content="([^"]+)"/)).toBe(`${origin}${pagePath}`);
    expect(attr(html, /<meta property="og:description" content="([^"]+)"/)).toBe(description);
    expect(attr(html, /<meta name="twitter:card" content="([^"]+)"/)).toBe('summary_large_image');
    expect(staticHtmlProblems(html, want)).toEqual([]);
  });

  it("/terms names the deployment's support address before any script, and gives it to the browser to hydrate with", async () => {
    const html = await (await fetch(`${origin}/terms`)).text();
    expect(staticText(html)).toContain(`Contact us at ${SUPPORT} or through the contact form`);
    expect(html).toContain(`href="mailto:${SUPPORT}"`);
    expect(attr(html, /<meta name="framewright:support-email" content="([^"]+)"/)).toBe(SUPPORT);
    expect(html).not.toContain('framewright.invalid');
  });

  it('gives each page its own title and description', async () => {
    const heads = await Promise.all(site.publicPaths.map(async (p) => (await (await fetch(`${origin}${p}`)).text()).match(/<meta name="description" content="([^"]+)"/)![1]));
    expect(new Set(heads).size).toBe(heads.length);
  });

  it('serves the app shell for the signed-in pages and the not-found page with 404 for anything else', async () => {
    const app = await fetch(`${origin}/generator`);
    expect(app.status).toBe(200);
    expect(await app.text()).toContain('<div id="root"></div>');
    for (const unknown of ['/no-such-page', '/faq/extra', '/video-generator/none']) {
      const res = await fetch(`${origin}${unknown}`);
      expect(res.status).toBe(404);
      expect(await res.text()).toMatch(/<h1[^>]*>Page not found<\/h1>/);
    }
    expect((await fetch(`${origin}/FAQ/`)).status).toBe(200);
  });

  it('lists the public pages in sitemap.xml and keeps crawlers out of the app in robots.txt', async () => {
    const sitemap = await (await fetch(`${origin}/sitemap.xml`)).text();
    expect([...sitemap.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]).sort()).toEqual(site.publicPaths.map((p) => `${origin}${p}`).sort());
    const robots = await (await fetch(`${origin}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${origin}/sitemap.xml`);
    expect(robots).toContain('Disallow: /generator');
    expect(robots).not.toMatch(/Disallow: \/(faq|pricing)\b/);
  });
});
