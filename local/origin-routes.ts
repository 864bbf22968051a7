/**
 * What the single origin serves, as a table (first match wins; the web app takes the rest):
 *   /api, /api/*, /s/*   the local gateway as through CloudFront: the WAF's per-IP rate rules (429), then the origin
 *                        header added and the viewer address set from the socket (gateway/edge.ts)
 *   /config.json         the SPA's runtime configuration (contract/app-config.ts)
 *   /_cognito, /_cognito/*  cognito-local (so the browser talks to one origin), behind the user pool's per-IP limits
 *   /_dev/mailbox        every email sent (and /_dev/mailbox.json)
 *   POST /_dev/background/drain   waits until the stream functions have handled every change made so far
 *   POST /_dev/background/run/<id>   runs a scheduled function now
 *   POST /_dev/live/drop  cuts every open WebSocket without a close handshake, as a network failure would
 *                        (?sub=<user>: only that user's)
 *   POST /_dev/live/refuse?sub=<user>&on=1|0   refuses that user's new WebSockets with 503 (or accepts them again)
 *   GET /_dev/stats      the process's event-loop delay since the last read, and the invocations running now
 *                        (`npm run bench:load` samples it: every function of the stack shares this one process)
 * The push channel's WebSockets (`/live`) are upgrades, which local/live takes on the same server.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppConfig } from '../contract/app-config';
import { COGNITO_WAF_BLOCK } from '../contract/edge-limits';
import { Messages } from '../contract/errors';
import { THROTTLE_RETRY_AFTER_SECONDS } from '../contract/throttles';
import type { Background } from './background';
import { asCloudFront, cognitoRateLimiter, edgeRateLimiter, viewerIp } from './gateway/edge';
import type { LocalLive } from './live';
import type { MailboxMessage } from './mailbox';
import { mailboxPage } from './mailbox/page';
import { loopStats } from './shared/loop-stats';
import { proxy, type OriginRoute } from './origin';
import { sendHtml, sendJson } from './shared/http';
import { LOCAL_IDS } from './shared/local-ids';

const NO_STORE = { 'cache-control': 'no-store' };

export interface OriginTargets {
  gateway: ((req: IncomingMessage, res: ServerResponse) => Promise<boolean>) & { running?(): number };
  /** The origin header's current value (the origin secret's, as each rotation sets it). */
  edgeHeader: () => string;
  cognitoUrl: string;
  /** The origin's port, for a request that names no host. */
  port: number;
  background: Background;
  live: LocalLive;
  mail: { messages(): Promise<MailboxMessage[]> };
}

export function originRoutes(t: OriginTargets): OriginRoute[] {
  const limitsOff = process.env.FW_EDGE_RATE_LIMITS === 'off';
  const edgeLimited = limitsOff ? () => false : edgeRateLimiter();
  const cognitoLimited = limitsOff ? () => false : cognitoRateLimiter();

  // CloudFront's `/api/*` and `/s/*` behaviours go to the API origin with the origin header.
  const api: OriginRoute['to'] = async (req, res, url) => {
    // WAF's answer to a rate rule: 429 before the API sees the request.
    if (edgeLimited(viewerIp(req), url.pathname)) {
      return sendJson(res, 429, { message: 'Too Many Requests', error: Messages.tooManyRequests }, NO_STORE);
    }
    // CloudFront's /api/* response headers policy: a Retry-After on an answer without one (API Gateway's 429 has
    // none); a header the answer sets itself wins, as the policy's does not override (lib/constructs/site.ts).
    if (url.pathname === '/api' || url.pathname.startsWith('/api/')) res.setHeader('retry-after', String(THROTTLE_RETRY_AFTER_SECONDS));
    if (!(await t.gateway(asCloudFront(req, t.edgeHeader()), res))) sendJson(res, 404, { message: 'Not Found' });
  };

  const cognito: OriginRoute['to'] = (req, res) => {
    // The user pool's web ACL: what Cognito answers a blocked call.
    if (cognitoLimited(viewerIp(req), req.headers['x-amz-target'] as string | undefined)) {
      res.writeHead(COGNITO_WAF_BLOCK.status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': COGNITO_WAF_BLOCK.type });
      return res.end(JSON.stringify({ __type: COGNITO_WAF_BLOCK.type, message: COGNITO_WAF_BLOCK.message }));
    }
    proxy(req, res, t.cognitoUrl, '/_cognito');
  };

  const config: OriginRoute['to'] = (req, res) => {
    const body: AppConfig = {
      region: LOCAL_IDS.region,
      userPoolId: LOCAL_IDS.userPoolId,
      userPoolClientId: LOCAL_IDS.userPoolClientId,
      userPoolEndpoint: `http://${req.headers.host ?? `localhost:${t.port}`}/_cognito`,
      authFlowType: 'USER_PASSWORD_AUTH',
      apiBaseUrl: '/api',
      supportEmail: LOCAL_IDS.support,
    };
    sendJson(res, 200, body, NO_STORE);
  };

  const loop = loopStats();
  return [
    { path: '/api', to: api },
    { path: '/api/*', to: api },
    { path: '/s/*', to: api },
    { path: '/config.json', to: config },
    { path: '/_cognito', to: cognito },
    { path: '/_cognito/*', to: cognito },
    { path: '/_dev/mailbox.json', to: async (_req, res) => sendJson(res, 200, { messages: await t.mail.messages() }, NO_STORE) },
    { path: '/_dev/mailbox', to: async (_req, res) => sendHtml(res, 200, mailboxPage(await t.mail.messages())) },
    {
      method: 'POST',
      path: '/_dev/background/drain',
      to: async (_req, res) => {
        await t.background.drain();
        sendJson(res, 200, { ok: true }, NO_STORE);
      },
    },
    {
      method: 'POST',
      path: '/_dev/background/run/*',
      to: async (_req, res, url) => {
        let id: string;
        try {
          id = decodeURIComponent(url.pathname.slice('/_dev/background/run/'.length));
        } catch {
          return sendJson(res, 400, { error: 'the function id is not valid percent-encoding' }, NO_STORE);
        }
        const ran = await t.background.runNow(id);
        sendJson(res, ran ? 200 : 404, { ok: ran }, NO_STORE);
      },
    },
    {
      method: 'POST',
      path: '/_dev/live/refuse',
      to: (_req, res, url) => {
        const sub = url.searchParams.get('sub');
        if (!sub) return sendJson(res, 400, { error: 'sub is required' }, NO_STORE);
        t.live.refuse(sub, url.searchParams.get('on') !== '0');
        sendJson(res, 200, { ok: true }, NO_STORE);
      },
    },
    { path: '/_dev/stats', to: (_req, res) => sendJson(res, 200, { ...loop.read(), running: t.gateway.running?.() }, NO_STORE) },
    {
      method: 'POST',
      path: '/_dev/live/drop',
      to: (_req, res, url) => {
        const sub = url.searchParams.get('sub');
        const ids = sub ? t.live.connectionsOf(sub) : t.live.connections();
        for (const id of ids) t.live.drop(id);
        sendJson(res, 200, { dropped: ids.length }, NO_STORE);
      },
    },
  ];
}
