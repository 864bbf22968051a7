/**
 * The embedded stack: everything the product needs on one machine, behind one origin. `startStack` is the list of
 * its steps; each concern has its module: the single origin (origin.ts) and what it serves (origin-routes.ts), the
 * services the functions call (services.ts), the functions' environment and loading (functions.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { ALL_ROUTES } from '../contract/routes';
import { LIVE_ROUTES } from '../contract/live';
import { startBackground } from './background';
import { exportEnv, functionEnvironment, functionHandler } from './functions';
import { createGateway } from './gateway';
import { smallestAccountConcurrency } from './gateway/concurrency';
import { asCloudFront } from './gateway/edge';
import { markFunctionRequests } from './iam';
import { startLive } from './live';
import { mailbox } from './mailbox';
import { listenApiEndpoint, listenOrigin } from './origin';
import { originRoutes } from './origin-routes';
import { partPorts, startServices } from './services';
import { LOCAL_IDS } from './shared/local-ids';
import { webMiddleware, type WebMode } from './web';

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

export async function startStack(o: StackOptions): Promise<Stack> {
  const log = o.log ?? ((l: string) => console.log(l));
  // Before any AWS call of the process: the functions' calls carry their identity to the IAM fronts.
  markFunctionRequests();
  const dataDir = path.resolve(o.dataDir);
  fs.mkdirSync(dataDir, { recursive: true });
  const origin = await listenOrigin(o.port, o.host ?? '127.0.0.1');

  const stops: Array<() => Promise<void>> = [origin.close];
  const stop = async () => {
    for (const s of stops.reverse()) await s().catch(() => undefined);
  };
  try {
    const ports = await partPorts(dataDir);
    const services = await startServices({ dataDir, url: origin.url, origins: origin.origins, ports, log, onStop: (s) => stops.push(s) });
    const env = functionEnvironment(services, origin.url);
    exportEnv(env);

    const gateway = createGateway({
      routes: ALL_ROUTES,
      loadHandler: (route) => functionHandler(route.id, route.handler),
      userPoolId: LOCAL_IDS.userPoolId,
      clientId: LOCAL_IDS.userPoolClientId,
      jwksUrl: services.cognito.jwksUrl,
      log: process.env.FW_GATEWAY_LOG ? log : undefined,
      // API Gateway's per-route throttles (FW_API_THROTTLE=off: the test suite, whose runs burst far above them).
      throttle: process.env.FW_API_THROTTLE !== 'off',
      // Lambda's concurrency: the reservations, and the smallest account they deploy to (FW_LAMBDA_CONCURRENCY=<n>
      // sets the account's, =off removes it: the test suite, whose runs start many jobs at once).
      concurrency: lambdaConcurrency(process.env.FW_LAMBDA_CONCURRENCY),
    });
    const apiEndpoint = await listenApiEndpoint(gateway, ports.api);
    stops.push(apiEndpoint.close);
    // The origin secret's rotation checks that the API takes the new value at the API's own endpoint, as in the cloud.
    exportEnv(env, { API_ENDPOINT_URL: apiEndpoint.url, ORIGIN_TEST_URL: `${apiEndpoint.url}/api/health` });

    const live = await startLive({
      server: origin.server,
      loadHandler: (name) => functionHandler(LIVE_ROUTES.find((r) => r.handler === name)!.id, name),
      handlers: { connect: liveHandler('$connect'), disconnect: liveHandler('$disconnect'), default: liveHandler('$default') },
      log,
      throughEdge: (req) => asCloudFront(req, services.secrets.edgeHeader()),
    });
    stops.push(live.close);
    // Before any handler reads its configuration (once, on first use): the fan-out posts to the local @connections.
    exportEnv(env, { LIVE_ENDPOINT_URL: await services.iam.frontConnections(live.endpoint) });

    // After the environment is set: the stream and scheduled functions read it at import, like the handlers.
    const background = await startBackground({ dynamoEndpoint: services.dynamo.endpoint, tableName: LOCAL_IDS.tableName, dataDir, region: LOCAL_IDS.region, log });
    stops.unshift(background.stop);
    const web = await webMiddleware(o.web, origin.server, { supportEmail: LOCAL_IDS.support });
    stops.unshift(web.close);

    const routes = originRoutes({
      gateway,
      edgeHeader: services.secrets.edgeHeader,
      cognitoUrl: services.cognito.url,
      port: origin.port,
      background,
      live,
      mail: mailbox(services.ses.endpoint, dataDir),
    });
    origin.serve(routes, web.handle, log);
    return { url: origin.url, env, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

const liveHandler = (key: string) => LIVE_ROUTES.find((r) => r.routeKey === key)!.handler;

function lambdaConcurrency(setting: string | undefined): number | undefined {
  if (setting === 'off') return undefined;
  if (setting === undefined || setting === '') return smallestAccountConcurrency(ALL_ROUTES);
  const n = Number(setting);
  if (!Number.isInteger(n) || n < 1) throw new Error(`FW_LAMBDA_CONCURRENCY is "${setting}": a whole number of concurrent executions, or off`);
  return n;
}
