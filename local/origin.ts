/**
 * The single origin (CloudFront's stand-in locally): one server whose route table (origin-routes.ts) sends each
 * path prefix to its target, and the web app for the rest. It listens before anything else starts, so its URL is
 * known to everything that links to it, and answers a quick 503 until every part is up (health probes retry on it).
 * Beside it, the API's own endpoint (API Gateway's execute-api URL): the gateway with nothing in front.
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { answerClientError } from './gateway';
import { sendJson } from './shared/http';

type Listener = (req: IncomingMessage, res: ServerResponse) => void;

export interface OriginRoute {
  /** The path; ending in `/*`, every path under it. */
  path: string;
  /** Only this method (any when absent); a request with another goes on down the table. */
  method?: 'POST';
  to: (req: IncomingMessage, res: ServerResponse, url: URL) => unknown;
}

export interface Origin {
  server: http.Server;
  port: number;
  /** `http://localhost:<port>`: what links and mails point at. */
  url: string;
  /** The origin by each of its names, as a browser sends it in `Origin`. */
  origins: string[];
  /** From now on, requests go through this table; what no route takes, to `rest`. */
  serve(routes: readonly OriginRoute[], rest: Listener, log: (line: string) => void): void;
  close(): Promise<void>;
}

/** CloudFront's longest URL (path and query), in bytes. */
const CLOUDFRONT_MAX_URL_BYTES = 8_192;

const closeServer = (server: http.Server) => new Promise<void>((resolve) => server.close(() => resolve()));

export async function listenOrigin(port: number, host: string): Promise<Origin> {
  let onRequest: Listener = (_req, res) => {
    res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' });
    res.end('Framewright is starting');
  };
  // Node's parser stops at 16 kB of request line and headers and can only drop such a request; CloudFront reads up
  // to its own limits and answers 414 for a URL over 8,192 bytes. So this server reads more and answers like CloudFront.
  const server = http.createServer({ maxHeaderSize: 64 * 1024 }, (req, res) => {
    if (Buffer.byteLength(req.url ?? '') > CLOUDFRONT_MAX_URL_BYTES) {
      req.resume();
      return sendJson(res, 414, { message: 'Request-URI Too Large' });
    }
    onRequest(req, res);
  });
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const bound = (server.address() as AddressInfo).port;
  return {
    server,
    port: bound,
    url: `http://localhost:${bound}`,
    origins: [`http://localhost:${bound}`, `http://127.0.0.1:${bound}`],
    serve(routes, rest, log) {
      onRequest = (req, res) => {
        void (async () => {
          let url: URL;
          try {
            url = new URL(req.url ?? '/', 'http://local');
          } catch {
            return sendJson(res, 400, { message: 'Bad Request' });
          }
          const route = routes.find((r) => (r.method === undefined || r.method === req.method) && covers(r.path, url.pathname));
          if (route) return route.to(req, res, url);
          rest(req, res);
        })().catch((err) => {
          log(`[stack] ${req.method} ${req.url} failed: ${(err as Error).stack}`);
          if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
          res.end('Internal error in the local stack');
        });
      };
    },
    close: () => closeServer(server),
  };
}

function covers(route: string, pathname: string): boolean {
  return route.endsWith('/*') ? pathname.startsWith(route.slice(0, -1)) : pathname === route;
}

/**
 * The API's own endpoint, as API Gateway's execute-api URL: the gateway with nothing in front, so a request that
 * skips the single origin arrives without the origin header and is refused.
 */
export async function listenApiEndpoint(
  gateway: (req: IncomingMessage, res: ServerResponse) => Promise<boolean>,
  port: number,
): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    void gateway(req, res).then((served) => {
      if (!served) sendJson(res, 404, { message: 'Not Found' });
    });
  });
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => closeServer(server) };
}

/** Passes the request on to `target`, the path without `prefix` (the origin's `/_cognito` is cognito-local's `/`). */
export function proxy(req: IncomingMessage, res: ServerResponse, target: string, prefix: string): void {
  const t = new URL(target);
  const upstream = http.request(
    { host: t.hostname, port: t.port, method: req.method, path: (req.url ?? '/').slice(prefix.length) || '/', headers: { ...req.headers, host: t.host } },
    (up) => {
      res.writeHead(up.statusCode ?? 502, up.headers);
      up.pipe(res);
    },
  );
  upstream.on('error', () => {
    if (!res.headersSent) res.writeHead(502, { 'content-type': 'text/plain' });
    res.end('Upstream unavailable');
  });
  req.pipe(upstream);
}
