/**
 * The embedded stack: everything the product needs on one machine, behind one origin.
 *   /api/*          the local gateway (real handlers, API Gateway v2 events, JWT checks), reached as through
 *                   CloudFront: the origin header added, the viewer address set from the socket (gateway/edge.ts);
 *                   env.API_ENDPOINT_URL is the gateway alone, as the execute-api URL (it refuses everything)
 *   /config.json    the SPA's runtime configuration
 *   /_cognito       cognito-local (so the browser talks to one origin), behind the user pool's per-IP limits
 *   /_dev/mailbox   every email sent (and /_dev/mailbox.json)
 *   /_dev/background/drain (POST)  waits until the stream functions have handled every change made so far
 *   /_dev/background/run/<id> (POST)  runs a scheduled function now
 *   /live           the push channel's WebSockets (local/live: the live-* handlers; @connections on its own port)
 *   /_dev/live/drop (POST)  cuts every open WebSocket without a close handshake, as a network failure would
 *                   (?sub=<user>: only that user's)
 *   /_dev/live/refuse (POST ?sub=<user>&on=1|0)  refuses that user's new WebSockets with 503 (or accepts them again)
 *   everything else the web app (Vite dev server, or web/dist with FW_WEB=dist)
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { ALL_ROUTES } from '../contract/routes';
import type { AppConfig } from '../contract/app-config';
import { startDynamo, ensureTable, type LocalDynamo } from './dynamodb';
import { startS3, type LocalS3 } from './s3';
import { startSes, type LocalSes } from './ses';
import { startCognitoLocal, type CognitoLocal } from './cognito/cognito-server';
import { codeMailer } from './cognito/code-mail';
import { answerClientError, createGateway } from './gateway';
import { asCloudFront, cognitoRateLimiter, edgeRateLimiter, viewerIp } from './gateway/edge';
import { COGNITO_WAF_BLOCK } from '../contract/edge-limits';
import { Messages } from '../contract/errors';
import { mailbox } from './mailbox';
import { mailboxPage } from './mailbox/page';
import { startReplicateSimulator, type ReplicateSim } from './replicate-sim';
import { startPaypalSimulator, type PaypalSim } from './paypal-sim';
import { webMiddleware, type WebMode } from './web';
import { sendJson } from './shared/http';
import { REPO_ROOT } from './shared/paths';
import { startBackground } from './background';
import { startLive } from './live';
import { LIVE_ROUTES } from '../contract/live';
import { keptPorts } from './shared/ports';
import { localFfmpegPath } from './shared/ffmpeg-path';
import { asFunction, markFunctionRequests, startLocalIam } from './iam';
import { startLocalSecrets } from './secrets-manager/start';
import { LOCAL_SECRETS } from './shared/local-secrets';

export interface StackOptions {
  /** Where all local data lives (survives restarts). */
  dataDir: string;
  /** Port of the single origin; 0 picks a free one. */
  port: number;
  /** Serve the Vite dev server, the production build, or no web app (API only). */
  web: WebMode;
  host?: string;
  log?: (line: string) => void;
}

export interface Stack {
  url: string;
  /** The environment the handlers run with (endpoints, ids); tests use it to reach the emulators directly. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** Fixed ids, so the pool, its tokens and the web config survive a restart. */
export const LOCAL_IDS = {
  region: 'us-east-1',
  userPoolId: 'us-east-1_FramewrightLocal',
  userPoolClientId: 'framewrightlocalwebclient',
  tableName: 'framewright',
  mediaBucket: 'framewright-media',
  from: 'no-reply@framewright.local',
  support: 'support@framewright.local',
} as const;

const NO_STORE = { 'cache-control': 'no-store' };

const msFromEnv = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v >= 0 && process.env[name] !== '' && process.env[name] !== undefined ? v : fallback;
};

export async function startStack(o: StackOptions): Promise<Stack> {
  const log = o.log ?? ((l: string) => console.log(l));
  // Before any AWS call of the process: the functions' calls carry their identity to the IAM fronts.
  markFunctionRequests();
  const host = o.host ?? '127.0.0.1';
  const dataDir = path.resolve(o.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });

  // The single origin listens first, so its URL is known to everything that links to it.
  // Until every part is up, requests get a quick 503 instead of hanging (health probes retry on it).
  let onRequest: (req: IncomingMessage, res: ServerResponse) => void = (_req, res) => {
    res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '1' });
    res.end('Framewright is starting');
  };
  const server = http.createServer((req, res) => onRequest(req, res));
  server.on('clientError', answerClientError);
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const url = `http://localhost:${port}`;
  const origins = [url, `http://127.0.0.1:${port}`];

  const stops: Array<() => Promise<void>> = [() => new Promise<void>((r) => server.close(() => r()))];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };

  try {
    // Each part keeps last run's port (when free): links handed out before a restart keep working after it.
    const ports = await keptPorts(dataDir, ['dynamodb', 's3', 'ses', 'cognito', 'paypal', 'replicate', 'api', 'secrets', 'iam-dynamodb', 'iam-s3', 'iam-ses', 'iam-cognito', 'iam-secrets', 'iam-connections'] as const);
    const [dynamoPort, s3Port, sesPort, cognitoPort] = [ports.dynamodb, ports.s3, ports.ses, ports.cognito];
    const [dynamo, s3, ses]: [LocalDynamo, LocalS3, LocalSes] = await Promise.all([
      startDynamo(path.join(dataDir, 'dynamodb'), dynamoPort, log),
      startS3(path.join(dataDir, 's3'), s3Port, LOCAL_IDS.mediaBucket, origins, log),
      startSes(sesPort, log),
    ]);
    stops.push(dynamo.stop, s3.stop, ses.stop);

    const sesClient = new SESv2Client({ region: LOCAL_IDS.region, endpoint: ses.endpoint, credentials: { accessKeyId: 'local', secretAccessKey: 'local' } });
    const cognito: CognitoLocal = await startCognitoLocal({
      dataDir: path.join(dataDir, 'cognito'),
      host: '127.0.0.1',
      port: cognitoPort,
      region: LOCAL_IDS.region,
      userPoolId: LOCAL_IDS.userPoolId,
      userPoolClientId: LOCAL_IDS.userPoolClientId,
      sendCode: codeMailer(sesClient, LOCAL_IDS.from, url),
      log,
    });
    stops.push(cognito.close);
    log(`[cognito] cognito-local on ${cognito.url}, pool ${LOCAL_IDS.userPoolId}`);
    await ensureTable(dynamo.endpoint, LOCAL_IDS.tableName);
    const secrets = await startLocalSecrets({
      dataDir: path.join(dataDir, 'secrets-manager'),
      region: LOCAL_IDS.region,
      port: ports.secrets,
      stage: 'local',
      appKeys: {
        REPLICATE_API_TOKEN: LOCAL_SECRETS.replicateToken,
        REPLICATE_WEBHOOK_SECRET: LOCAL_SECRETS.replicateWebhookSecret,
        PAYPAL_CLIENT_ID: LOCAL_SECRETS.paypalClientId,
        PAYPAL_CLIENT_SECRET: LOCAL_SECRETS.paypalClientSecret,
        PAYPAL_WEBHOOK_ID: LOCAL_SECRETS.paypalWebhookId,
      },
      welcomeHashKey: LOCAL_SECRETS.welcomeHashKey,
      loadRotation: async () => (await import(path.join(REPO_ROOT, 'lambdas', 'handlers', 'rotate-origin-secret.ts'))).handler,
      log,
    });
    stops.push(secrets.close);
    // The functions reach every emulator through IAM: each call is evaluated against its function's statements.
    const iam = await startLocalIam({
      emulators: { dynamodb: dynamo.endpoint, s3: s3.endpoint, ses: ses.endpoint, cognito: cognito.url, secretsManager: secrets.endpoint },
      resources: {
        tableName: LOCAL_IDS.tableName,
        mediaBucket: LOCAL_IDS.mediaBucket,
        userPoolId: LOCAL_IDS.userPoolId,
        senderEmail: LOCAL_IDS.from,
        secretArns: { secret: secrets.env.SECRETS_ARN!, originSecret: secrets.env.ORIGIN_SECRET_ARN!, welcomeHashKey: secrets.env.WELCOME_HASH_KEY_ARN! },
      },
      // The fronts are the addresses the functions and their presigned links use: kept, like the emulators'.
      ports: {
        dynamodb: ports['iam-dynamodb'],
        s3: ports['iam-s3'],
        ses: ports['iam-ses'],
        cognito: ports['iam-cognito'],
        secretsManager: ports['iam-secrets'],
        connections: ports['iam-connections'],
      },
      log,
    });
    stops.push(iam.close);

    const [replicate, paypal]: [ReplicateSim, PaypalSim] = await Promise.all([
      startReplicateSimulator({
        host: '127.0.0.1',
        apiToken: LOCAL_SECRETS.replicateToken,
        webhookSecret: LOCAL_SECRETS.replicateWebhookSecret,
        imageMs: msFromEnv('SIM_IMAGE_MS', 4_000),
        videoMs: msFromEnv('SIM_VIDEO_MS', 30_000),
        jitterMs: msFromEnv('SIM_JITTER_MS', 0),
        outputTtlMs: msFromEnv('SIM_OUTPUT_TTL_MS', 3_600_000),
        hangMs: msFromEnv('SIM_HANG_MS', 60_000),
        // Predictions survive a restart of the stack, as they survive anything on Replicate's side, on the same
        // port (the URLs of stored predictions and outputs stay valid).
        port: ports.replicate,
        dataDir: path.join(dataDir, 'replicate'),
        log,
      }),
      startPaypalSimulator({
        host: '127.0.0.1',
        clientId: LOCAL_SECRETS.paypalClientId,
        clientSecret: LOCAL_SECRETS.paypalClientSecret,
        webhookId: LOCAL_SECRETS.paypalWebhookId,
        webhookUrl: `${url}/api/webhooks/paypal`,
        log,
        webhookJitterMs: msFromEnv('PAYPAL_SIM_WEBHOOK_JITTER_MS', 100),
        approvalWindowMs: msFromEnv('PAYPAL_SIM_APPROVAL_WINDOW_MS', 3 * 60 * 60 * 1000),
        // Orders survive a restart of the stack, on the same port (approval links stay valid).
        port: ports.paypal,
        dataDir: path.join(dataDir, 'paypal'),
      }),
    ]);
    stops.push(replicate.close, paypal.close);
    log(`[replicate] simulator on ${replicate.url}`);
    log(`[paypal] simulator on ${paypal.url}`);


    const env: Record<string, string> = {
      AWS_REGION: LOCAL_IDS.region,
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      TABLE_NAME: LOCAL_IDS.tableName,
      MEDIA_BUCKET: LOCAL_IDS.mediaBucket,
      USER_POOL_ID: LOCAL_IDS.userPoolId,
      USER_POOL_CLIENT_ID: LOCAL_IDS.userPoolClientId,
      APP_URL: url,
      SES_FROM_ADDRESS: LOCAL_IDS.from,
      SUPPORT_EMAIL: LOCAL_IDS.support,
      COGNITO_JWKS_URL: cognito.jwksUrl,
      COGNITO_ENDPOINT: cognito.url,
      AWS_ENDPOINT_URL_DYNAMODB: iam.endpoints.dynamodb,
      AWS_ENDPOINT_URL_S3: iam.endpoints.s3,
      AWS_ENDPOINT_URL_SESV2: iam.endpoints.ses,
      AWS_ENDPOINT_URL_SES: iam.endpoints.ses,
      // Deleting an account calls Cognito's admin API (AdminDeleteUser) on cognito-local.
      AWS_ENDPOINT_URL_COGNITO_IDENTITY_PROVIDER: iam.endpoints.cognito,
      // Secrets are read at run time from the local Secrets Manager, by ARN, as in the cloud; kept a second here so a
      // changed key or a rotation shows at once (minutes in the cloud), and the old origin value is refused 10 s after one.
      AWS_ENDPOINT_URL_SECRETS_MANAGER: iam.endpoints.secretsManager,
      ...secrets.env,
      SECRETS_CACHE_SECONDS: '1',
      ORIGIN_SECRET_CACHE_SECONDS: '1',
      ORIGIN_SECRET_OVERLAP_SECONDS: process.env.ORIGIN_SECRET_OVERLAP_SECONDS ?? '10',
      // The functions that save videos run ffmpeg: the static build in node_modules (a layer in the cloud).
      FFMPEG_PATH: localFfmpegPath(),
      REPLICATE_BASE_URL: `${replicate.url}/v1`,
      PAYPAL_BASE_URL: paypal.url,
      // Powertools Metrics would print an EMF record per request to stdout; CloudWatch is not here to read them.
      POWERTOOLS_METRICS_DISABLED: 'true',
    };
    // Handlers read their configuration from the environment once, at import.
    Object.assign(process.env, env);

    const gateway = createGateway({
      routes: ALL_ROUTES,
      loadHandler: async (route) => asFunction(route.id, (await import(path.join(REPO_ROOT, 'lambdas', 'handlers', `${route.handler}.ts`))).handler),
      userPoolId: LOCAL_IDS.userPoolId,
      clientId: LOCAL_IDS.userPoolClientId,
      jwksUrl: cognito.jwksUrl,
      log: process.env.FW_GATEWAY_LOG ? log : undefined,
      // API Gateway's per-route throttles (FW_API_THROTTLE=off: the test suite, whose runs burst far above them).
      throttle: process.env.FW_API_THROTTLE !== 'off',
    });
    // The API's own endpoint, as API Gateway's execute-api URL: the gateway with nothing in front, so a request
    // that skips the single origin (CloudFront's stand-in) arrives without the origin header and is refused.
    const apiServer = http.createServer((req, res) => {
      void gateway(req, res).then((served) => {
        if (!served) sendJson(res, 404, { message: 'Not Found' });
      });
    });
    apiServer.on('clientError', answerClientError);
    await new Promise<void>((resolve) => apiServer.listen(ports.api, '127.0.0.1', () => resolve()));
    stops.push(() => new Promise<void>((r) => apiServer.close(() => r())));
    env.API_ENDPOINT_URL = `http://127.0.0.1:${(apiServer.address() as AddressInfo).port}`;
    // Where the origin secret's rotation checks that the API takes the new value: the API's own endpoint, as in the cloud.
    env.ORIGIN_TEST_URL = `${env.API_ENDPOINT_URL}/api/health`;
    process.env.ORIGIN_TEST_URL = env.ORIGIN_TEST_URL;
    const mail = mailbox(ses.endpoint, dataDir);
    const liveHandler = (key: string) => LIVE_ROUTES.find((r) => r.routeKey === key)!.handler;
    const liveFunction = (handler: string) => LIVE_ROUTES.find((r) => r.handler === handler)!.id;
    const live = await startLive({
      server,
      loadHandler: async (name) => asFunction(liveFunction(name), (await import(path.join(REPO_ROOT, 'lambdas', 'handlers', `${name}.ts`))).handler),
      handlers: { connect: liveHandler('$connect'), disconnect: liveHandler('$disconnect'), default: liveHandler('$default') },
      log,
      throughEdge: (req) => asCloudFront(req, secrets.edgeHeader()),
    });
    stops.push(live.close);
    // Before any handler reads its configuration (once, on first use): the fan-out posts to the local @connections.
    env.LIVE_ENDPOINT_URL = await iam.frontConnections(live.endpoint);
    process.env.LIVE_ENDPOINT_URL = env.LIVE_ENDPOINT_URL;
    // After the environment is set: the stream and scheduled functions read it at import, like the handlers.
    const background = await startBackground({ dynamoEndpoint: dynamo.endpoint, tableName: LOCAL_IDS.tableName, dataDir, region: LOCAL_IDS.region, log });
    stops.unshift(background.stop);

    const web = await webMiddleware(o.web, server, { supportEmail: LOCAL_IDS.support });
    stops.unshift(web.close);

    const limitsOff = process.env.FW_EDGE_RATE_LIMITS === 'off';
    const edgeLimited = limitsOff ? () => false : edgeRateLimiter();
    const cognitoLimited = limitsOff ? () => false : cognitoRateLimiter();
    onRequest = (req: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        const url = new URL(req.url ?? '/', 'http://local');
        const pathname = url.pathname;
        // CloudFront's `/api/*` and `/s/*` behaviours go to the API origin with the origin header.
        const forApi = pathname === '/api' || pathname.startsWith('/api/') || pathname.startsWith('/s/');
        // WAF's answer to a rate rule: 429 before the API sees the request.
        if (forApi && edgeLimited(viewerIp(req), pathname)) {
          return sendJson(res, 429, { message: 'Too Many Requests', error: Messages.tooManyRequests }, NO_STORE);
        }
        if (await gateway(forApi ? asCloudFront(req, secrets.edgeHeader()) : req, res)) return;
        if (pathname === '/config.json') {
          const config: AppConfig = {
            region: LOCAL_IDS.region,
            userPoolId: LOCAL_IDS.userPoolId,
            userPoolClientId: LOCAL_IDS.userPoolClientId,
            userPoolEndpoint: `http://${req.headers.host ?? `localhost:${port}`}/_cognito`,
            authFlowType: 'USER_PASSWORD_AUTH',
            apiBaseUrl: '/api',
            supportEmail: LOCAL_IDS.support,
          };
          return sendJson(res, 200, config, NO_STORE);
        }
        if (req.method === 'POST' && pathname === '/_dev/background/drain') {
          await background.drain();
          return sendJson(res, 200, { ok: true }, NO_STORE);
        }
        if (req.method === 'POST' && pathname.startsWith('/_dev/background/run/')) {
          const ran = await background.runNow(decodeURIComponent(pathname.slice('/_dev/background/run/'.length)));
          return sendJson(res, ran ? 200 : 404, { ok: ran }, NO_STORE);
        }
        if (req.method === 'POST' && pathname === '/_dev/live/refuse') {
          const sub = url.searchParams.get('sub');
          if (!sub) return sendJson(res, 400, { error: 'sub is required' }, NO_STORE);
          live.refuse(sub, url.searchParams.get('on') !== '0');
          return sendJson(res, 200, { ok: true }, NO_STORE);
        }
        if (req.method === 'POST' && pathname === '/_dev/live/drop') {
          const sub = url.searchParams.get('sub');
          const ids = sub ? live.connectionsOf(sub) : live.connections();
          for (const id of ids) live.drop(id);
          return sendJson(res, 200, { dropped: ids.length }, NO_STORE);
        }
        if (pathname === '/_dev/mailbox.json') return sendJson(res, 200, { messages: await mail.messages() }, NO_STORE);
        if (pathname === '/_dev/mailbox') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          return res.end(mailboxPage(await mail.messages()));
        }
        if (pathname === '/_cognito' || pathname.startsWith('/_cognito/')) {
          // The user pool's web ACL: what Cognito answers a blocked call.
          if (cognitoLimited(viewerIp(req), req.headers['x-amz-target'] as string | undefined)) {
            res.writeHead(COGNITO_WAF_BLOCK.status, { 'content-type': 'application/x-amz-json-1.1', 'x-amzn-errortype': COGNITO_WAF_BLOCK.type });
            return res.end(JSON.stringify({ __type: COGNITO_WAF_BLOCK.type, message: COGNITO_WAF_BLOCK.message }));
          }
          return proxy(req, res, cognito.url, '/_cognito');
        }
        web.handle(req, res);
      })().catch((err) => {
        log(`[stack] ${req.method} ${req.url} failed: ${(err as Error).stack}`);
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' });
        res.end('Internal error in the local stack');
      });
    };

    return { url, env, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

function proxy(req: IncomingMessage, res: ServerResponse, target: string, prefix: string): void {
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
