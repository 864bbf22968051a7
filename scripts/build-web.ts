/**
 * `npm run build`: the web app for production, in web/dist (or `--out-dir <dir>`).
 *
 * 1. Vite builds the browser app (web/vite.config.mts): index.html, hashed assets, .vite/manifest.json.
 * 2. Vite builds web/src/app/server-entry.tsx for Node (into a temporary folder) and each public page
 *    (PUBLIC_PAGES) is rendered by the app's own router (react-router's static handler) to HTML, with its own
 *    title, description, canonical URL and Open Graph/Twitter tags, and the page's chunks preloaded.
 * 3. Writes `<page>/index.html` per public page (`index.html` for /), `404.html` (the not-found page),
 *    `app.html` (the single-page app's shell for the signed-in pages), `sitemap.xml`, `robots.txt`, and
 *    `.vite/site.json` (which path is which, read by the local server and CloudFront's function).
 *
 * Absolute URLs (canonical, og:url, the sitemap) name the site's origin as SITE_ORIGIN_PLACEHOLDER, and pages the
 * support address as SITE_SUPPORT_EMAIL_PLACEHOLDER: whoever serves the build puts the real values in
 * (fillSitePlaceholders: CDK at deploy time, local/web for the embedded stack).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { SHOWCASE_RENDERS } from '../web/src/features/marketing/showcase-renders';
import { PUBLIC_PAGE_SOURCES, SITE_MANIFEST, SITE_ORIGIN_PLACEHOLDER, SITE_SUPPORT_EMAIL_PLACEHOLDER, SUPPORT_EMAIL_META, type SiteManifest } from '../contract/site';

const WEB = path.resolve(__dirname, '..', 'web');
const CONFIG = path.join(WEB, 'vite.config.mts');
const VITE = path.resolve(WEB, '..', 'node_modules', 'vite', 'bin', 'vite.js');

/** Vite's own command line (its JS API under tsx's loader cannot resolve Vite's virtual modules). */
function vite(...args: string[]): void {
  execFileSync(process.execPath, [VITE, 'build', '--config', CONFIG, '--logLevel', 'warn', ...args], {
    stdio: 'inherit',
    env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' },
  });
}

interface ServerEntry {
  renderPage(url: string): Promise<{ html: string; status: number }>;
  appPaths(): string[];
  PUBLIC_PATHS: string[];
}

interface ManifestChunk {
  file: string;
  imports?: string[];
}

const escapeAttr = (s: string) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
const unescapeHtml = (s: string) =>
  s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#x27;|&#39;/g, "'").replace(/&amp;/g, '&');

/**
 * The page's <title>, description and preloads (`<link rel="preload">`, e.g. the image its first screen shows), which
 * the page renders itself (React puts them first in its output): they move into the head.
 */
function takeHeadTags(html: string): { body: string; title: string; description?: string; preloads: string[] } {
  const title = /<title>([\s\S]*?)<\/title>/.exec(html);
  if (!title) throw new Error('the page renders no <title>');
  const description = /<meta name="description" content="([^"]*)"\/>/.exec(html);
  const preloads = [...html.matchAll(/<link rel="preload"[^>]*\/>/g)].map((m) => m[0]);
  let body = html.replace(title[0], '').replace(description?.[0] ?? '', '');
  for (const link of preloads) body = body.replace(link, '');
  return { body, title: unescapeHtml(title[1]!), description: description ? unescapeHtml(description[1]!) : undefined, preloads };
}

/**
 * A prerendered page's head paints without another request: the stylesheet inlined (one small file for the whole
 * site, ~8 kB gzip) and no preload of /config.json (a public page reads it only when idle).
 */
function inlineCritical(template: string, outDir: string): string {
  const links = [...template.matchAll(/<link rel="stylesheet"[^>]*href="([^"]+)"[^>]*>/g)];
  if (links.length !== 1) throw new Error(`index.html should link one stylesheet, found ${links.length}`);
  const css = fs.readFileSync(path.join(outDir, links[0]![1]!), 'utf8');
  if (css.includes('</style')) throw new Error('the stylesheet contains </style');
  return template.replace(links[0]![0], `<style>${css}</style>`).replace(/\s*<!--[^>]*-->\s*<link rel="preload" href="\/config.json"[^>]*>/, '');
}

function pageHead(template: string, opts: { path: string; title: string; description: string; extra: string }): string {
  const url = `${SITE_ORIGIN_PLACEHOLDER}${opts.path}`;
  const image = `${SITE_ORIGIN_PLACEHOLDER}/media/hero-poster.webp`;
  const t = escapeAttr(opts.title);
  const d = escapeAttr(opts.description);
  const tags = [
    `<title>${t}</title>`,
    `<meta name="description" content="${d}">`,
    `<link rel="canonical" href="${url}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="Framewright">`,
    `<meta property="og:title" content="${t}">`,
    `<meta property="og:description" content="${d}">`,
    `<meta property="og:url" content="${url}">`,
    `<meta property="og:image" content="${image}">`,
    `<meta name="twitter:card" content="summary_large_image">`,
    `<meta name="twitter:title" content="${t}">`,
    `<meta name="twitter:description" content="${d}">`,
    `<meta name="twitter:image" content="${image}">`,
    // The support address the page was rendered with (the terms name it), for the browser to hydrate with.
    `<meta name="${SUPPORT_EMAIL_META}" content="${SITE_SUPPORT_EMAIL_PLACEHOLDER}">`,
    opts.extra,
  ].filter(Boolean);
  return template
    .replace(/<title>[\s\S]*?<\/title>/, '')
    .replace(/<meta name="description"[^>]*>/, '')
    .replace('</head>', `    ${tags.join('\n    ')}\n  </head>`);
}

/**
 * The page's HTML in the template's root. A public page is hydrated on the visitor's first sign of intent
 * (`data-hydrate="intent"`, web/src/main.ts); the not-found page, in the app's layout with its session links, at once.
 */
const fill = (template: string, body: string, onIntent: boolean) => {
  if (!template.includes('<div id="root"></div>')) throw new Error('index.html has no empty <div id="root"></div>');
  return template.replace('<div id="root"></div>', `<div id="root" data-prerendered${onIntent ? ' data-hydrate="intent"' : ''}>${body}</div>`);
};

export async function buildWeb(outDir = path.join(WEB, 'dist')): Promise<SiteManifest> {
  vite('--outDir', outDir, '--emptyOutDir');

  const serverDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fw-prerender-'));
  try {
    vite('--ssr', 'src/app/server-entry.tsx', '--outDir', serverDir, '--emptyOutDir');
    const entryFile = fs.readdirSync(serverDir).find((f) => /^server-entry\.m?js$/.test(f));
    if (!entryFile) throw new Error(`the server build wrote no server-entry.js in ${serverDir}`);
    // The server bundle imports packages by name: link node_modules beside it so Node resolves them.
    fs.symlinkSync(path.resolve(WEB, '..', 'node_modules'), path.join(serverDir, 'node_modules'), 'dir');
    const server = (await import(pathToFileURL(path.join(serverDir, entryFile)).href)) as ServerEntry;

    const template = fs.readFileSync(path.join(outDir, 'index.html'), 'utf8');
    const pageTemplate = inlineCritical(template, outDir);
    const manifest = JSON.parse(fs.readFileSync(path.join(outDir, '.vite', 'manifest.json'), 'utf8')) as Record<string, ManifestChunk>;
    const chunk = (key: string) => {
      if (!manifest[key]) throw new Error(`${key} is not in the build (PUBLIC_PAGE_SOURCES in contract/site.ts out of date?)`);
      return key;
    };
    chunk('src/app/app-entry.tsx');
    chunk('src/app/layouts/marketing-layout.tsx');

    // The app shell first: index.html is about to become the landing page.
    fs.writeFileSync(path.join(outDir, 'app.html'), template);

    const write = async (pagePath: string, file: string, pageModule: string, expectStatus: number) => {
      const { html, status } = await server.renderPage(`http://prerender.local${pagePath}`);
      if (status !== 200) throw new Error(`${pagePath} rendered with status ${status}, expected 200`);
      const { body, title, description, preloads } = takeHeadTags(html);
      chunk(pageModule);
      const head = pageHead(pageTemplate, {
        path: pagePath,
        title,
        description: description ?? '',
        // No modulepreload of the page's chunks: under a slow connection they would compete with the images for the
        // first paint; the prerendered HTML paints without them and hydration follows (main.ts waits for that paint).
        extra: preloads.join('\n    '),
      });
      const target = path.join(outDir, file);
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, fill(expectStatus === 404 ? head.replace(/\s*<link rel="canonical"[^>]*>/, '') : head, body, expectStatus === 200));
    };

    for (const p of server.PUBLIC_PATHS) {
      const source = PUBLIC_PAGE_SOURCES[p];
      if (!source) throw new Error(`${p} is missing from PUBLIC_PAGE_SOURCES (contract/site.ts)`);
      await write(p, p === '/' ? 'index.html' : `${p.slice(1)}/index.html`, source, 200);
    }
    await write('/404', '404.html', 'src/pages/not-found-page.tsx', 404);

    const site: SiteManifest = {
      publicPaths: server.PUBLIC_PATHS,
      appPaths: server.appPaths(),
      appShell: '/app.html',
      notFound: '/404.html',
      placeholderMedia: Object.entries(SHOWCASE_RENDERS)
        .filter(([, r]) => r.provider !== 'replicate')
        .map(([id]) => id)
        .sort(),
    };
    fs.writeFileSync(
      path.join(outDir, 'sitemap.xml'),
      `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${site.publicPaths
        .map((p) => `  <url><loc>${SITE_ORIGIN_PLACEHOLDER}${p}</loc></url>`)
        .join('\n')}\n</urlset>\n`,
    );
    // The app's pages are behind sign-in: nothing there for a crawler.
    fs.writeFileSync(
      path.join(outDir, 'robots.txt'),
      `User-agent: *\n${site.appPaths.map((p) => `Disallow: ${p}\n`).join('')}\nSitemap: ${SITE_ORIGIN_PLACEHOLDER}/sitemap.xml\n`,
    );
    fs.writeFileSync(path.join(outDir, SITE_MANIFEST), `${JSON.stringify(site, null, 1)}\n`);
    return site;
  } finally {
    fs.rmSync(serverDir, { recursive: true, force: true });
  }
}

if (require.main === module) {
  const i = process.argv.indexOf('--out-dir');
  const outDir = i > 0 ? path.resolve(process.argv[i + 1]!) : undefined;
  buildWeb(outDir).catch((err: unknown) => {
    console.error(err);
    process.exit(1);
  });
}
