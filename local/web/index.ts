/** How the embedded stack serves the web app: Vite's dev server in middleware mode, or web/dist as CloudFront would. */
import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { byteRange } from '../shared/byte-range';
import { REPO_ROOT } from '../shared/paths';

/** The Vite dev server, the production build (web/dist), or no web app (API only). */
export type WebMode = 'dev' | 'dist' | 'none';

export interface Web {
  handle(req: IncomingMessage, res: ServerResponse): void;
  close(): Promise<void>;
}

/** The web app behind the single origin: the Vite dev server, the production build, or nothing (API only). */
export async function webMiddleware(mode: WebMode, server: Server): Promise<Web> {
  const notFound = (_req: IncomingMessage, res: ServerResponse) => {
    res.writeHead(404, { 'content-type': 'text/plain' });
    res.end('Not found');
  };
  if (mode === 'none') return { handle: notFound, close: async () => undefined };
  if (mode === 'dist') return staticSite(path.join(REPO_ROOT, 'web', 'dist'));
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
  '.txt': 'text/plain',
  '.woff2': 'font/woff2',
};

/** web/dist as CloudFront serves it: hashed assets cached for a year, extension-less paths get index.html. */
function staticSite(dir: string): Web {
  if (!fs.existsSync(path.join(dir, 'index.html'))) throw new Error(`${dir} has no index.html: run \`npm run build\` first`);
  return {
    handle(req, res) {
      const pathname = decodeURIComponent(new URL(req.url ?? '/', 'http://local').pathname);
      let file = path.join(dir, path.normalize(pathname).replace(/^(\.\.[/\\])+/, ''));
      if (!file.startsWith(dir)) file = path.join(dir, 'index.html');
      if (!fs.existsSync(file) || fs.statSync(file).isDirectory()) {
        if (path.extname(pathname)) {
          res.writeHead(404, { 'content-type': 'text/plain' });
          return res.end('Not found');
        }
        file = path.join(dir, 'index.html');
      }
      const ext = path.extname(file);
      const type = TYPES[ext] ?? 'application/octet-stream';
      const immutable = pathname.startsWith('/assets/');
      const headers: Record<string, string> = {
        'content-type': type,
        'cache-control': immutable ? 'public, max-age=31536000, immutable' : 'no-cache',
      };
      const body = fs.readFileSync(file);
      // Byte ranges, as S3 and CloudFront serve them: Chromium seeks video with them.
      headers['accept-ranges'] = 'bytes';
      const range = byteRange(req.headers.range, body.length);
      if (range === 'unsatisfiable') return res.writeHead(416, { 'content-range': `bytes */${body.length}` }).end();
      if (range) {
        headers['content-range'] = `bytes ${range.start}-${range.end}/${body.length}`;
        return res.writeHead(206, headers).end(body.subarray(range.start, range.end + 1));
      }
      if (/text|javascript|json|svg/.test(type) && /\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
        headers['content-encoding'] = 'gzip';
        headers.vary = 'accept-encoding';
        return res.writeHead(200, headers).end(zlib.gzipSync(body));
      }
      res.writeHead(200, headers).end(body);
    },
    close: async () => undefined,
  };
}
