/**
 * The embedded stack: everything the product needs on one machine, behind one origin.
 *   /api/*          the local gateway (real handlers, API Gateway v2 events, JWT checks)
 *   /config.json    the SPA's runtime configuration
 *   /_cognito       cognito-local (so the browser talks to one origin)
 *   /_dev/mailbox   every email sent (and /_dev/mailbox.json)
 *   /_dev/background/drain (POST)  waits until the stream functions have handled every change made so far
 *   /_dev/background/run/<id> (POST)  runs a scheduled function now
 *   everything else the web app (Vite dev server, or web/dist with FW_WEB=dist)
 */
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import path from 'node:path';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import { SESv2Client } from '@aws-sdk/client-sesv2';
import { ALL_ROUTES } from '../contract/routes';
import { startDynamo, ensureTable, type LocalDynamo } from './dynamodb';
import { startS3, type LocalS3 } from './s3';
import { startSes, type LocalSes } from './ses';
import { startCognitoLocal, type CognitoLocal } from './cognito/cognito-server';
import { codeMailer } from './cognito/code-mail';
import { answerClientError, createGateway } from './gateway';
import { mailbox } from './mailbox';
import { mailboxPage } from './mailbox/page';
import { startReplicateSimulator, type ReplicateSim } from './replicate-sim';
import { startPaypalSimulator, type PaypalSim } from './paypal-sim';
import { webMiddleware, type WebMode } from './web';
import { sendJson } from './shared/http';
import { REPO_ROOT } from './shared/paths';
import { startBackground } from './background';
import { freePort } from './shared/ports';

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

/** Fixed local credentials for the simulators (never real ones: nothing local talks to Replicate or PayPal). */
export const LOCAL_SECRETS = {
  replicateToken: 'r8_framewright_local_simulator_token',
  replicateWebhookSecret: `whsec_${Buffer.from('framewright-local-replicate-webhook-secret').toString('base64')}`,
  paypalClientId: 'framewright-local-paypal-client',
  paypalClientSecret: 'framewright-local-paypal-secret',
  paypalWebhookId: 'WH-FRAMEWRIGHT-LOCAL',
} as const;

const NO_STORE = { 'cache-control': 'no-store' };

const msFromEnv = (name: string, fallback: number) => {
  const v = Number(process.env[name]);
  return Number.isFinite(v) && v >= 0 && process.env[name] !== '' && process.env[name] !== undefined ? v : fallback;
};

export async function startStack(o: StackOptions): Promise<Stack> {
  const log = o.log ?? ((l: string) => console.log(l));
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
    const [dynamoPort, s3Port, sesPort, cognitoPort] = await Promise.all([freePort(), freePort(), freePort(), freePort()]);
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

    const [replicate, paypal]: [ReplicateSim, PaypalSim] = await Promise.all([
      startReplicateSimulator({
        host: '127.0.0.1',
        apiToken: LOCAL_SECRETS.replicateToken,
        webhookSecret: LOCAL_SECRETS.replicateWebhookSecret,
        imageMs: msFromEnv('SIM_IMAGE_MS', 4_000),
        videoMs: msFromEnv('SIM_VIDEO_MS', 30_000),
        videoFps: msFromEnv('SIM_VIDEO_FPS', 8),
        outputTtlMs: msFromEnv('SIM_OUTPUT_TTL_MS', 3_600_000),
        hangMs: msFromEnv('SIM_HANG_MS', 60_000),
        // Predictions survive a restart of the stack, as they survive anything on Replicate's side.
        dataDir: path.join(dataDir, 'replicate'),
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
      AWS_ENDPOINT_URL_DYNAMODB: dynamo.endpoint,
      AWS_ENDPOINT_URL_S3: s3.endpoint,
      AWS_ENDPOINT_URL_SESV2: ses.endpoint,
      AWS_ENDPOINT_URL_SES: ses.endpoint,
      REPLICATE_BASE_URL: `${replicate.url}/v1`,
      REPLICATE_API_TOKEN: LOCAL_SECRETS.replicateToken,
      REPLICATE_WEBHOOK_SECRET: LOCAL_SECRETS.replicateWebhookSecret,
      PAYPAL_BASE_URL: paypal.url,
      PAYPAL_CLIENT_ID: LOCAL_SECRETS.paypalClientId,
      PAYPAL_CLIENT_SECRET: LOCAL_SECRETS.paypalClientSecret,
      PAYPAL_WEBHOOK_ID: LOCAL_SECRETS.paypalWebhookId,
    };
    // Handlers read their configuration from the environment once, at import.
    Object.assign(process.env, env);

    const gateway = createGateway({
      routes: ALL_ROUTES,
      loadHandler: async (route) => (await import(path.join(REPO_ROOT, 'lambdas', 'handlers', `${route.handler}.ts`))).handler,
      userPoolId: LOCAL_IDS.userPoolId,
      clientId: LOCAL_IDS.userPoolClientId,
      jwksUrl: cognito.jwksUrl,
      log: process.env.FW_GATEWAY_LOG ? log : undefined,
    });
    const mail = mailbox(ses.endpoint, dataDir);
    // After the environment is set: the stream and scheduled functions read it at import, like the handlers.
    const background = await startBackground({ dynamoEndpoint: dynamo.endpoint, tableName: LOCAL_IDS.tableName, dataDir, region: LOCAL_IDS.region, log });
    stops.unshift(background.stop);

    const web = await webMiddleware(o.web, server, { supportEmail: LOCAL_IDS.support });
    stops.unshift(web.close);

    onRequest = (req: IncomingMessage, res: ServerResponse) => {
      void (async () => {
        const pathname = new URL(req.url ?? '/', 'http://local').pathname;
        if (await gateway(req, res)) return;
        if (pathname === '/config.json') {
          const config = {
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
        if (pathname === '/_dev/mailbox.json') return sendJson(res, 200, { messages: await mail.messages() }, NO_STORE);
        if (pathname === '/_dev/mailbox') {
          res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
          return res.end(mailboxPage(await mail.messages()));
        }
        if (pathname === '/_cognito' || pathname.startsWith('/_cognito/')) return proxy(req, res, cognito.url, '/_cognito');
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
