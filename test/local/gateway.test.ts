import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { answerClientError, createGateway, MAX_PAYLOAD_BYTES } from '../../local/gateway';
import type { RouteDef } from '../../contract/routes';
import { reservedConcurrencyOf } from '../../lib/constructs/concurrency';

const routes: RouteDef[] = [
  { id: 'echo', method: 'POST', path: '/api/echo/{id}', auth: 'none', handler: 'echo', grants: [] },
  { id: 'slow', method: 'GET', path: '/api/slow', auth: 'none', handler: 'slow', grants: [] },
  { id: 'boom', method: 'GET', path: '/api/boom', auth: 'none', handler: 'boom', grants: [] },
  // A function whose own timeout (100 ms here) comes before the integration's (300 ms here).
  { id: 'overrun', method: 'GET', path: '/api/overrun', auth: 'none', handler: 'slow', grants: [], timeoutSeconds: 0.1 },
];

let server: http.Server;
let base: string;
let lastEvent: APIGatewayProxyEventV2 | undefined;

beforeAll(async () => {
  const gateway = createGateway({
    routes,
    userPoolId: 'us-east-1_test',
    clientId: 'client',
    jwksUrl: 'http://127.0.0.1:1/jwks.json',
    timeoutMs: 300,
    loadHandler: async (route) => {
      if (route.id === 'slow' || route.id === 'overrun') return () => new Promise((r) => setTimeout(() => r({ statusCode: 200, body: 'late' }), 2000));
      if (route.id === 'boom') return async () => Promise.reject(new Error('kaput'));
      return async (event) => {
        lastEvent = event;
        return { statusCode: 201, headers: { 'x-ok': '1' }, body: JSON.stringify({ id: event.pathParameters?.id }) };
      };
    },
  });
  server = http.createServer((req, res) => {
    void gateway(req, res).then((handled) => {
      if (!handled) res.writeHead(418).end();
    });
  });
  server.on('clientError', answerClientError);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('local gateway', () => {
  it('invokes the handler with an API Gateway v2 event and returns its result', async () => {
    const res = await fetch(`${base}/api/echo/a%20b?x=1&x=2&y=3`, { method: 'POST', body: '{"a":1}', headers: { 'content-type': 'application/json' } });
    expect(res.status).toBe(201);
    expect(res.headers.get('x-ok')).toBe('1');
    expect(await res.json()).toEqual({ id: 'a b' });
    expect(lastEvent).toMatchObject({
      version: '2.0',
      routeKey: 'POST /api/echo/{id}',
      rawPath: '/api/echo/a%20b',
      queryStringParameters: { x: '1,2', y: '3' },
      body: '{"a":1}',
      isBase64Encoded: false,
      requestContext: { http: { method: 'POST' }, stage: '$default' },
    });
  });

  it('base64-encodes binary bodies', async () => {
    await fetch(`${base}/api/echo/1`, { method: 'POST', body: Buffer.from([0, 1, 2]), headers: { 'content-type': 'image/png' } });
    expect(lastEvent).toMatchObject({ isBase64Encoded: true, body: Buffer.from([0, 1, 2]).toString('base64') });
  });

  it('answers 404 for unknown routes and methods, and leaves non-API paths to the next handler', async () => {
    expect((await fetch(`${base}/api/nope`)).status).toBe(404);
    expect((await fetch(`${base}/api/echo/1`)).status).toBe(404);
    expect((await fetch(`${base}/index.html`)).status).toBe(418);
  });

  it('answers 400 to a path that is not valid percent-encoded UTF-8, without calling the function', async () => {
    lastEvent = undefined;
    for (const bad of ['%', '%ZZ', 'a%C3', '%E0%A4', '%ED%A0%80', '%FF']) {
      const res = await fetch(`${base}/api/echo/${bad}`, { method: 'POST' });
      expect({ bad, status: res.status, body: await res.json() }).toEqual({ bad, status: 400, body: { message: 'Bad Request' } });
    }
    expect((await fetch(`${base}/api/nope%ZZ`)).status).toBe(400);
    expect(lastEvent).toBeUndefined();
    expect((await fetch(`${base}/index%ZZ.html`)).status).toBe(418);
  });

  it("answers a request Node cannot take (headers over 16 kB) with 431 and a JSON message, not a bare status line", async () => {
    const res = await fetch(`${base}/api/echo/${'a'.repeat(17_000)}`, { method: 'POST' });
    expect(res.status).toBe(431);
    expect(await res.json()).toEqual({ message: 'Request Header Fields Too Large' });
  });

  it('refuses payloads over 6 MB with 413, like API Gateway and Lambda', async () => {
    const res = await fetch(`${base}/api/echo/1`, { method: 'POST', body: Buffer.alloc(MAX_PAYLOAD_BYTES + 1, 97), headers: { 'content-type': 'text/plain' } });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ message: 'Request Entity Too Large' });
  });

  it('answers 503 when the integration times out and 500 when the handler throws', async () => {
    const slow = await fetch(`${base}/api/slow`);
    expect(slow.status).toBe(503);
    expect(await slow.json()).toEqual({ message: 'Service Unavailable' });
    const boom = await fetch(`${base}/api/boom`);
    expect(boom.status).toBe(500);
    expect(await boom.json()).toEqual({ message: 'Internal Server Error' });
  });

  it("answers 500 when a function outlives its own timeout, as Lambda ends it, before the integration's 29 s", async () => {
    // The integration's timeout here is 300 ms (503); the function's own, 100 ms, answers first.
    const res = await fetch(`${base}/api/overrun`);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({ message: 'Internal Server Error' });
  });
});

describe('API Gateway throttling (contract/throttles.ts per route)', () => {
  // paypalReturn is a `payments` route: 10 requests a second, bursts of 20.
  const throttled: RouteDef[] = [
    { id: 'paypalReturn', method: 'GET', path: '/api/pay', auth: 'none', handler: 'x', grants: [] },
    { id: 'health', method: 'GET', path: '/api/health', auth: 'none', handler: 'x', grants: [] },
  ];
  let tserver: http.Server;
  let tbase: string;
  const ran = new Map<string, number>();

  beforeAll(async () => {
    const gateway = createGateway({
      routes: throttled,
      userPoolId: 'us-east-1_test',
      clientId: 'client',
      jwksUrl: 'http://127.0.0.1:1/jwks.json',
      throttle: true,
      loadHandler: async (route) => async () => {
        ran.set(route.id, (ran.get(route.id) ?? 0) + 1);
        return { statusCode: 200, body: '{}' };
      },
    });
    tserver = http.createServer((req, res) => void gateway(req, res));
    await new Promise<void>((r) => tserver.listen(0, '127.0.0.1', () => r()));
    tbase = `http://127.0.0.1:${(tserver.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => tserver.close(() => r())));

  it('past its burst a route answers 429 {"message":"Too Many Requests"} as API Gateway does (no Retry-After), and its function never runs; other routes keep their own bucket; the bucket refills at its rate', async () => {
    const t0 = Date.now();
    const answers = await Promise.all(Array.from({ length: 60 }, () => fetch(`${tbase}/api/pay`)));
    const seconds = (Date.now() - t0) / 1000;
    const admitted = answers.filter((r) => r.status === 200).length;
    // The burst, plus what the bucket refilled meanwhile at 10 a second.
    expect(admitted).toBeGreaterThanOrEqual(20);
    expect(admitted).toBeLessThanOrEqual(20 + Math.ceil(10 * seconds) + 1);
    const refused = answers.filter((r) => r.status === 429);
    expect(refused.length).toBe(60 - admitted);
    expect(await refused[0]!.json()).toEqual({ message: 'Too Many Requests' });
    expect(refused[0]!.headers.get('retry-after')).toBeNull();
    expect(ran.get('paypalReturn')).toBe(admitted);
    // Another route's bucket is its own.
    expect((await fetch(`${tbase}/api/health`)).status).toBe(200);
    // 10 a second: after half a second about 5 more are taken.
    await new Promise((r) => setTimeout(r, 500));
    const again = await Promise.all(Array.from({ length: 10 }, () => fetch(`${tbase}/api/pay`)));
    const ok = again.filter((r) => r.status === 200).length;
    expect(ok).toBeGreaterThanOrEqual(4);
    expect(ok).toBeLessThanOrEqual(7);
  });
});

describe("Lambda's concurrency (reserved per function, the rest shared)", () => {
  // generateImage reserves what the stack reserves for it (lib/constructs/concurrency.ts); media and me share the 3
  // executions the account has left.
  const routesHere: RouteDef[] = [
    { id: 'generateImage', method: 'POST', path: '/api/generate-image', auth: 'none', handler: 'x', grants: [] },
    { id: 'media', method: 'GET', path: '/api/media', auth: 'none', handler: 'x', grants: [] },
    { id: 'me', method: 'GET', path: '/api/me', auth: 'none', handler: 'x', grants: [] },
  ];
  const reserved = reservedConcurrencyOf(routesHere[0]!)!;
  const shared = 3;
  let cserver: http.Server;
  let cbase: string;
  const started = new Map<string, number>();
  let finish: () => void = () => undefined;
  let held = new Promise<void>((r) => (finish = r));

  beforeAll(async () => {
    const gateway = createGateway({
      routes: routesHere,
      userPoolId: 'us-east-1_test',
      clientId: 'client',
      jwksUrl: 'http://127.0.0.1:1/jwks.json',
      // generateImage's reservation, and 3 left for the others.
      concurrency: reserved + shared,
      loadHandler: async (route) => async () => {
        started.set(route.id, (started.get(route.id) ?? 0) + 1);
        await held;
        return { statusCode: 200, body: '{}' };
      },
    });
    cserver = http.createServer((req, res) => void gateway(req, res));
    await new Promise<void>((r) => cserver.listen(0, '127.0.0.1', () => r()));
    cbase = `http://127.0.0.1:${(cserver.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((r) => cserver.close(() => r())));

  it('an invocation past its function\'s reserved concurrency is refused 500 {"message":"Internal Server Error"} before it runs; the shared pool is apart; the executions come back when the functions return', async () => {
    const generating = Array.from({ length: reserved + 5 }, () => fetch(`${cbase}/api/generate-image`, { method: 'POST' }));
    const sharing = Array.from({ length: 5 }, (_, i) => fetch(`${cbase}/api/${i % 2 ? 'me' : 'media'}`));
    // Wait until the admitted ones are all running (held), then more time for any excess to start if it could.
    const running = () => (started.get('generateImage') ?? 0) + (started.get('media') ?? 0) + (started.get('me') ?? 0);
    for (let i = 0; i < 400 && running() < reserved + shared; i++) await new Promise((r) => setTimeout(r, 50));
    await new Promise((r) => setTimeout(r, 300));
    expect(started.get('generateImage')).toBe(reserved);
    expect((started.get('media') ?? 0) + (started.get('me') ?? 0)).toBe(shared);

    finish();
    const answers = await Promise.all(generating);
    const others = await Promise.all(sharing);
    expect(answers.filter((r) => r.status === 200)).toHaveLength(reserved);
    const refused = answers.filter((r) => r.status === 500);
    expect(refused).toHaveLength(5);
    expect(await refused[0]!.json()).toEqual({ message: 'Internal Server Error' });
    expect(others.map((r) => r.status).sort()).toEqual([200, 200, 200, 500, 500]);
    // Nothing refused ran.
    expect(started.get('generateImage')).toBe(reserved);

    // Back in the pools once the functions returned.
    held = Promise.resolve();
    const later = await Promise.all(Array.from({ length: reserved }, () => fetch(`${cbase}/api/generate-image`, { method: 'POST' })));
    expect(later.every((r) => r.status === 200)).toBe(true);
    expect((await fetch(`${cbase}/api/me`)).status).toBe(200);
  });
});
