/**
 * The push channel of the embedded stack, as API Gateway's WebSocket API runs it in the cloud:
 * - WebSockets on the single origin at LIVE_PATH: the real live-* handlers get API Gateway's WebSocket events
 *   ($connect with the handshake's headers, whose answer decides the handshake and its subprotocol; $default per
 *   message; $disconnect once), with API Gateway's limits (128 KB messages, 10 minutes idle, 2 hours in all);
 * - a stand-in for the stage's @connections management API on its own port (POST to send, GET, DELETE), as strict
 *   as API Gateway: a SigV4 Authorization header is required (403 ForbiddenException), an unknown or closed
 *   connection is 410 GoneException, data over 128 KB is 413 PayloadTooLargeException.
 * The fan-out's adapter (lambdas/adapters/apigw-live-sender.ts) talks to it with the AWS SDK, given only its URL.
 */
import http, { type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { WebSocketServer, type WebSocket } from 'ws';
import { LIVE_PATH } from '../../contract/live';
import { readBody, sendJson, TOO_LARGE } from '../shared/http';

/** API Gateway's WebSocket quotas: a message (and a PostToConnection's data) is at most 128 KB. */
export const MAX_MESSAGE_BYTES = 128 * 1024;
const STAGE = LIVE_PATH.slice(1);

interface SocketResult {
  statusCode?: number;
  headers?: Record<string, string>;
}
type SocketHandler = (event: unknown) => Promise<SocketResult | undefined>;

export interface LiveOptions {
  server: Server;
  loadHandler: (name: string) => Promise<SocketHandler>;
  handlers: { connect: string; disconnect: string; default: string };
  /** Close a connection that carried nothing this long (API Gateway: 10 minutes). */
  idleMs?: number;
  /** Close every connection after this long (API Gateway: 2 hours). */
  maxMs?: number;
  log: (line: string) => void;
  /** What CloudFront does to the handshake before API Gateway sees it (the single origin plays it: gateway/edge.ts). */
  throughEdge?: (req: IncomingMessage) => IncomingMessage;
}

export interface LocalLive {
  /** The @connections endpoint (the stage's callback URL): LIVE_ENDPOINT_URL of the fan-out. */
  endpoint: string;
  /** Open connections (tests). */
  connections(): string[];
  /** Drops a connection without a close handshake, as a network would (tests). */
  drop(connectionId: string): boolean;
  /** The open connections of one user (the `sub` of the ID token its handshake offered). */
  connectionsOf(sub: string): string[];
  /**
   * Refuses (or again accepts) every new handshake of one user with 503, as an unreachable or failing endpoint would
   * (tests: a tab whose socket stays down).
   */
  refuse(sub: string, on: boolean): void;
  close(): Promise<void>;
}

interface Conn {
  ws: WebSocket;
  connectedAt: string;
  lastActiveAt: string;
  sourceIp: string;
  userAgent: string;
  /** The user the handshake's token names (for the dev controls only; $connect verifies it). */
  sub: string | undefined;
}

/** The `sub` of a JWT among the offered subprotocols, unverified: dev controls only, never an identity. */
function offeredSub(protocols: string | undefined): string | undefined {
  for (const p of (protocols ?? '').split(',').map((x) => x.trim())) {
    const payload = p.split('.')[1];
    if (!payload || p.split('.').length !== 3) continue;
    try {
      const sub = (JSON.parse(Buffer.from(payload, 'base64url').toString('utf8')) as { sub?: unknown }).sub;
      if (typeof sub === 'string') return sub;
    } catch {
      // not a token
    }
  }
  return undefined;
}

/** An id in API Gateway's style (12 random bytes, base64, e.g. "L0SM9cOFvHcCIhw="). */
const newConnectionId = () => randomBytes(10).toString('base64');

export async function startLive(o: LiveOptions): Promise<LocalLive> {
  const idleMs = o.idleMs ?? 10 * 60_000;
  const maxMs = o.maxMs ?? 2 * 60 * 60_000;
  const conns = new Map<string, Conn>();
  const refused = new Set<string>();
  const [onConnect, onDisconnect, onDefault] = await Promise.all([
    o.loadHandler(o.handlers.connect),
    o.loadHandler(o.handlers.disconnect),
    o.loadHandler(o.handlers.default),
  ]);

  const event = (connectionId: string, routeKey: string, eventType: string, extra: Record<string, unknown> = {}) => ({
    requestContext: { routeKey, eventType, connectionId, stage: STAGE, domainName: 'localhost', requestTimeEpoch: Date.now(), apiId: 'local' },
    isBase64Encoded: false,
    ...extra,
  });

  // The subprotocol $connect chose, per request being upgraded.
  const chosen = new WeakMap<IncomingMessage, string | undefined>();
  const wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_MESSAGE_BYTES,
    handleProtocols: (offered, req) => {
      const pick = chosen.get(req);
      return pick && offered.has(pick) ? pick : false;
    },
  });

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (new URL(req.url ?? '/', 'http://local').pathname !== LIVE_PATH) return; // Vite's HMR socket, or nothing
    void (async () => {
      const connectionId = newConnectionId();
      const sub = offeredSub(req.headers['sec-websocket-protocol']);
      if (sub && refused.has(sub)) {
        socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
        return;
      }
      if (o.throughEdge) o.throughEdge(req);
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : (v ?? '')]));
      let result: SocketResult | undefined;
      try {
        result = await onConnect(event(connectionId, '$connect', 'CONNECT', { headers }));
      } catch (err) {
        o.log(`[live] $connect failed: ${(err as Error).message}`);
        result = { statusCode: 500 };
      }
      const status = result?.statusCode ?? 200;
      if (status !== 200) {
        // API Gateway answers a refused handshake with the route's status and closes.
        socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status] ?? 'Error'}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
        return;
      }
      const protocol = Object.entries(result?.headers ?? {}).find(([k]) => k.toLowerCase() === 'sec-websocket-protocol')?.[1];
      chosen.set(req, protocol);
      wss.handleUpgrade(req, socket, head, (ws) => {
        const now = new Date().toISOString();
        const conn: Conn = { ws, connectedAt: now, lastActiveAt: now, sourceIp: req.socket.remoteAddress ?? '', userAgent: String(req.headers['user-agent'] ?? ''), sub };
        conns.set(connectionId, conn);
        let idle = setTimeout(() => ws.close(1001, 'Going away'), idleMs).unref();
        const lifetime = setTimeout(() => ws.close(1001, 'Going away'), maxMs).unref();
        ws.on('message', (data) => {
          conn.lastActiveAt = new Date().toISOString();
          clearTimeout(idle);
          idle = setTimeout(() => ws.close(1001, 'Going away'), idleMs).unref();
          void onDefault(event(connectionId, '$default', 'MESSAGE', { body: data.toString() })).catch((err: unknown) =>
            o.log(`[live] $default failed: ${(err as Error).message}`),
          );
        });
        ws.on('close', () => {
          clearTimeout(idle);
          clearTimeout(lifetime);
          conns.delete(connectionId);
          void onDisconnect(event(connectionId, '$disconnect', 'DISCONNECT')).catch((err: unknown) =>
            o.log(`[live] $disconnect failed: ${(err as Error).message}`),
          );
        });
        ws.on('error', () => ws.terminate());
      });
    })();
  };
  o.server.on('upgrade', onUpgrade);

  const management = http.createServer((req, res) => {
    void (async () => {
      const error = (status: number, type: string, message: string | null) => sendJson(res, status, { message }, { 'x-amzn-errortype': type });
      if (!/^AWS4-HMAC-SHA256 Credential=/.test(req.headers.authorization ?? '')) return error(403, 'ForbiddenException', 'Missing Authentication Token');
      // Matched before decoding: a connection id is base64 and may hold '/' (sent as %2F).
      const m = /^\/([^/]+)\/(?:@|%40)connections\/([^/]+)$/.exec(new URL(req.url ?? '/', 'http://local').pathname);
      if (!m || m[1] !== STAGE) return error(403, 'ForbiddenException', 'Forbidden');
      const conn = conns.get(decodeURIComponent(m[2]!));
      const method = req.method ?? 'GET';
      if (method === 'POST') {
        const body = await readBody(req, MAX_MESSAGE_BYTES);
        if (body === TOO_LARGE) return error(413, 'PayloadTooLargeException', 'Message too long');
        if (!conn || conn.ws.readyState !== conn.ws.OPEN) return error(410, 'GoneException', null);
        conn.ws.send(body.toString('utf8'));
        res.writeHead(200, { 'content-length': '0' }).end();
        return;
      }
      if (!conn) return error(410, 'GoneException', null);
      if (method === 'GET') {
        return sendJson(res, 200, { ConnectedAt: conn.connectedAt, LastActiveAt: conn.lastActiveAt, Identity: { SourceIp: conn.sourceIp, UserAgent: conn.userAgent } });
      }
      if (method === 'DELETE') {
        conn.ws.close(1000);
        res.writeHead(204).end();
        return;
      }
      error(403, 'ForbiddenException', 'Forbidden');
    })().catch(() => {
      if (!res.headersSent) res.writeHead(500).end();
    });
  });
  await new Promise<void>((resolve) => management.listen(0, '127.0.0.1', resolve));
  const endpoint = `http://127.0.0.1:${(management.address() as AddressInfo).port}/${STAGE}`;

  return {
    endpoint,
    connections: () => [...conns.keys()],
    connectionsOf: (sub) => [...conns].filter(([, c]) => c.sub === sub).map(([id]) => id),
    refuse(sub, on) {
      if (on) refused.add(sub);
      else refused.delete(sub);
    },
    drop(connectionId) {
      const conn = conns.get(connectionId);
      if (!conn) return false;
      conn.ws.terminate();
      return true;
    },
    async close() {
      o.server.off('upgrade', onUpgrade);
      for (const c of conns.values()) c.ws.terminate();
      wss.close();
      await new Promise<void>((r) => management.close(() => r()));
    },
  };
}
