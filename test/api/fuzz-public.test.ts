/**
 * The routes anyone can call, fuzzed through the gateway (test/support/fuzz.ts): health, the contact form, PayPal's
 * browser redirects and both providers' webhooks. A few hundred bad requests each, from a fixed seed: none may answer
 * 5xx, a 4xx says why, the redirects always land on a page of the app, and forged webhooks change nothing.
 */
import { ALL_ROUTES, type RouteDef } from '../../contract/routes';
import { loopbackIp } from '../support/from-address';
import { signedWebhook } from '../support/generation';
import { scanItems } from '../support/payments';
import {
  badSegment,
  fc,
  firstProblems,
  jsonOf,
  pct,
  routeCases,
  runCases,
  sample,
  send,
  storedStateOf,
  userWithHistory,
  type FuzzAnswer,
  type FuzzCase,
  type RouteFuzz,
  type UserWithHistory,
} from '../support/fuzz';

const publicRoutes = ALL_ROUTES.filter((r) => r.auth !== 'user');
/** The contact form's cases come from a loopback address of this run's own (the viewer IP the stack records). */
const VIEWER_IP = loopbackIp();
let fixture: UserWithHistory;

beforeAll(async () => {
  fixture = await userWithHistory();
}, 120_000);

const printable = fc.string({ unit: fc.constantFrom(...'abcXYZ019+/=,._- '.split('')), maxLength: 60 });
const nearOrderIds = () => {
  const id = fixture.orderId;
  return fc.constantFrom(id.toLowerCase(), `${id}0`, id.slice(0, -1), `${id}%20`, `%20${id}`, `${id},${id}`, `${id}%00`, 'A'.repeat(37), 'ABCD', pct(`${id}é`));
};

/** Replicate's signature headers, forged: random, stale, or well-formed but signed with nothing we know. */
const forgedReplicateHeaders = fc.record(
  {
    'webhook-id': fc.oneof(fc.constant('msg_fuzz_forged'), printable),
    'webhook-timestamp': fc.oneof(fc.constant(String(Math.floor(Date.now() / 1000))), fc.constantFrom('0', '-1', '1e10', 'now', '99999999999999999999'), printable),
    'webhook-signature': fc.oneof(
      fc.base64String({ minLength: 44, maxLength: 44 }).map((s) => `v1,${s}`),
      fc.constantFrom('v1,', 'v1', 'v2,abc', 'v1,a v1,b', ','),
      printable,
    ),
  },
  { requiredKeys: [] },
);

/** PayPal's transmission headers, forged (the simulator's verify-webhook-signature says FAILURE or refuses them). */
const forgedPaypalHeaders = fc.record(
  {
    'paypal-auth-algo': fc.oneof(fc.constant('SHA256withRSA'), printable),
    'paypal-cert-url': fc.oneof(fc.constant('https://api.sandbox.paypal.com/v1/notifications/certs/CERT-360caa42-fca2a594-a5cafa77'), printable),
    'paypal-transmission-id': fc.oneof(fc.uuid(), printable),
    'paypal-transmission-sig': fc.oneof(fc.base64String({ maxLength: 344 }), printable),
    'paypal-transmission-time': fc.oneof(fc.constant(new Date().toISOString()), printable),
  },
  { requiredKeys: [] },
);

/** How each public route is fuzzed beyond the generic cases, and what else its answers must be. */
interface PublicFuzz extends RouteFuzz {
  check?: (c: FuzzCase, a: FuzzAnswer) => string | undefined;
  /** Only bad input: leave out cases the route could rightly carry out. */
  keep?: (c: FuzzCase) => boolean;
}

const noSuccess = (_c: FuzzCase, a: FuzzAnswer) => (a.status < 400 ? `accepted a forged or bad request (${a.status})` : undefined);
/** A browser follows PayPal's links: the answer is a redirect to a page of the app (or the gateway's own 4xx). */
const toAppPage = (_c: FuzzCase, a: FuzzAnswer) => {
  if (a.status >= 400) return undefined;
  const location = String(a.headers.location ?? '');
  return a.status === 302 && /^\/(?![/\\])/.test(location) ? undefined : `answered ${a.status} to ${location || 'nowhere'} instead of a page of the app`;
};

const FUZZ: Record<string, () => PublicFuzz> = {
  sendContact: () => ({
    example: { email: 'fuzz@example.com', subject: 'Hello', description: 'A question about credits.' },
    keep: (c) => !ALL_ROUTES.find((r) => r.id === 'sendContact')!.request!.safeParse(jsonOf(c.body)).success,
    check: noSuccess,
  }),
  paypalReturn: () => ({ query: fc.tuple(nearOrderIds(), fc.option(printable)).map(([t, p]) => `token=${t}${p === null ? '' : `&PayerID=${pct(p)}`}`), check: toAppPage }),
  paypalCancel: () => ({ query: nearOrderIds().map((t) => `token=${t}`), check: toAppPage }),
  replicateWebhook: () => ({
    headers: forgedReplicateHeaders,
    query: fc.oneof(fc.constant(`job=${fixture.jobId}`), badSegment.map((s) => `job=${s}`)),
    example: { id: 'fuzz-prediction', status: 'succeeded', output: ['https://example.com/x.png'], error: null },
    check: noSuccess,
  }),
  paypalWebhook: () => ({
    headers: forgedPaypalHeaders,
    example: { id: 'WH-FUZZ-1', event_type: 'CHECKOUT.ORDER.APPROVED', resource: { id: fixture.orderId, status: 'APPROVED' } },
    check: noSuccess,
  }),
};

async function webhookRows(): Promise<number> {
  const rows = await scanItems('begins_with(pk, :r) OR begins_with(pk, :p)', { ':r': 'WEBHOOK#replicate:msg_fuzz', ':p': 'WEBHOOK#paypal:WH-FUZZ' });
  return rows.length;
}

describe('fuzzing the public routes', () => {
  it('covers every public route', () => {
    expect(publicRoutes.map((r) => r.id)).toEqual(expect.arrayContaining(['health', 'sendContact', 'paypalReturn', 'paypalCancel', 'replicateWebhook', 'paypalWebhook']));
  });

  it.each(publicRoutes.map((r, i) => [r.id, r, i] as const))('%s: no 5xx, a message with each 4xx, nothing stored changes', async (_id, route: RouteDef, i) => {
    const f = FUZZ[route.id]?.() ?? {};
    const cases = sample(routeCases(route, f), 2_000 + i)
      .filter((c) => f.keep?.(c) ?? true)
      .map((c) => (route.id === 'sendContact' ? { ...c, from: VIEWER_IP } : c));
    expect(cases.length).toBeGreaterThan(200);
    const before = await storedStateOf(fixture.user.sub);
    const run = await runCases(route.id, cases, f.check);
    expect(firstProblems(run)).toBe('');
    expect(await storedStateOf(fixture.user.sub)).toBe(before);
    expect(await webhookRows()).toBe(0);
    if (route.id === 'sendContact') {
      const stored = () => scanItems('begins_with(pk, :c) AND sourceIp = :ip', { ':c': 'CONTACT#', ':ip': VIEWER_IP });
      expect(await stored()).toEqual([]);
      expect(await scanItems('pk = :rate', { ':rate': `RATE#contact#ip#${VIEWER_IP}` })).toEqual([]);
      // The control: one good message from the same address is found by the same query.
      const good = await send({ ...cases[0]!, method: 'POST', path: route.path, headers: { 'content-type': 'application/json' }, from: VIEWER_IP, body: Buffer.from(JSON.stringify(f.example)) });
      expect(good.status).toBe(200);
      expect(await stored()).toHaveLength(1);
    }
  });

  it('replicateWebhook, signed with the real secret: garbage bodies and job ids get no 5xx and leave the job alone', async () => {
    const route = ALL_ROUTES.find((r) => r.id === 'replicateWebhook')!;
    const f = FUZZ.replicateWebhook!();
    const unsigned = sample(routeCases(route, { ...f, headers: fc.constant({}) }), 3_000);
    const cases = unsigned.map((c, n) => {
      const body = c.body?.toString('utf8') ?? '';
      return { ...c, headers: { ...c.headers, ...signedWebhook(body, { id: `msg_signed_fuzz_${n}` }), ...(c.headers['content-type'] ? { 'content-type': c.headers['content-type'] } : {}) } };
    });
    const before = await storedStateOf(fixture.user.sub);
    const run = await runCases('replicateWebhook (signed)', cases);
    expect(firstProblems(run)).toBe('');
    expect(await storedStateOf(fixture.user.sub)).toBe(before);
    // The deliveries that were accepted are in the inbox, where the forged ones above would have been found.
    const accepted = run.answers.filter(({ a }) => a.status === 200).length;
    expect(accepted).toBeGreaterThan(50);
    expect(await scanItems('begins_with(pk, :p)', { ':p': 'WEBHOOK#replicate:msg_signed_fuzz_' })).toHaveLength(accepted);
  });
});
