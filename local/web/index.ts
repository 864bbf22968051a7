/** How the embedded stack serves the web app: Vite's dev server in middleware mode, or web/dist as CloudFront would. */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { byteRange } from '../shared/byte-range';
import { REPO_ROOT } from '../shared/paths';
import { fillSitePlaceholders, SITE_MANIFEST, siteFile, type SiteManifest } from '../../contract/site';

/** The Vite dev server, the production build (web/dist), or no web app (API only). */
export type WebMode = 'dev' | 'dist' | 'none';

export interface Web {
  handle(req: IncomingMessage, res: ServerResponse): void;
  close(): Promise<void>;
}

/** The web app behind the single origin: the Vite dev server, the production build, or nothing (API only). */
export async function webMiddleware(mode: WebMode, server: Server, site: { supportEmail: string }): Promise<Web> {
  const notFound = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found');
  };
  if (mode === 'none') return { handle: notFound, close: async () => undefined };
  if (mode === 'dist') return staticSite(path.join(REPO_ROOT, 'web', 'dist'), site);
  const { createServer } = await import('vite');
  const vite = await createServer({
    configFile: path.join(REPO_ROOT, 'web', 'vite.config.mts'),
    appType: 'spa',
    logLevel: 'warn',
    server: { middlewareMode: true, hmr: { server } },
  });
  return { handle: (req, res) => vite.middlewares(req, res, () => notFound(req, res)), close: () => vite.close() };
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.webp': 'image/webp',
  '.mp4': 'video/mp4',
  '.json': 'application/json',
  '.ico': 'image/x-icon',
  '.txt': 'text/plain; charset=utf-8',
  '.xml': 'application/xml',
  '.woff2': 'font/woff2',
};

/** Text files whose absolute URLs name the site's origin, and pages the support address (placeholders of the build). */
const NAMES_ORIGIN = new Set(['.html', '.xml', '.txt']);

/**
 * web/dist as CloudFront serves it (lib/constructs/site.ts): a public page's prerendered file, the app shell for
 * the app's routes, the not-found page with status 404 for any other extension-less path; hashed assets cached
 * for a year; the site's origin put into the pages' absolute URLs, and the support address into the pages.
 */
export function staticSite(dir: string, values: { supportEmail: string }): Web {
  const manifestFile = path.join(dir, SITE_MANIFEST);
  if (!fs.existsSync(manifestFile)) throw new Error(`${dir} has no ${SITE_MANIFEST}: run \`npm run build\` first`);
  const site = JSON.parse(fs.readFileSync(manifestFile, 'utf8')) as SiteManifest;
  return {
    handle(req, res) {
      let pathname: string;
      try {
        pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://local').pathname);
      } catch {
        return res.writeHead(400, { 'content-type': 'text/plain' }).end('Bad request');
      }
      let status = 200;
      let file = path.join(dir, path.normalize(pathname).replace(/^(\.\.[/\\])+/, ''));
      if (!file.startsWith(dir) || pathname.startsWith('/.vite/')) file = path.join(dir, '.missing');
      if (!path.extname(pathname)) {
        const page = siteFile(site, pathname);
        file = path.join(dir, page.file);
        status = page.status;
      } else if (!fs.existsSync(file) || fs.statSync(file).isDirectory()) {
        res.writeHead(404, { 'content-type': 'text/plain' });
        return res.end('Not found');
      }
      const ext = path.extname(file);
      const type = TYPES[ext] ?? 'application/octet-stream';
      const immutable = pathname.startsWith('/assets/');
      const headers: Record<string, string> = {
        'content-type': type,
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      };
      let body = fs.readFileSync(file);
      if (NAMES_ORIGIN.has(ext)) {
        const origin = `http://${req.headers.host ?? 'localhost'}`;
        body = Buffer.from(fillSitePlaceholders(body.toString('utf8'), { origin, supportEmail: values.supportEmail }));
      }
      // Byte ranges, as S3 and CloudFront serve them: Chromium seeks video with them.
      headers['accept-ranges'] = 'bytes';
      const range = byteRange(req.headers.range, body.length);
      if (range === 'unsatisfiable') return res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      if (range && status === 200) {
        headers['content-range'] = `bytes ${range.start}-${range.end}/${body.length}`;
        return res.writeHead(206, headers).end(body.subarray(range.start, range.end + 1));
      }
      if (/text|javascript|json|svg/.test(type) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
        headers['content-encoding'] = 'gzip';
        headers.vary = 'accept-encoding';
        return res.writeHead(status, headers).end(zlib.gzipSync(body));
      }
      res.writeHead(status, headers).end(body);
    },
    close: async () => undefined,
  };
}
