/**
 * Every signed-in route, fuzzed through the gateway with a real user's token (test/support/fuzz.ts): a few hundred
 * bad requests each, from a fixed seed. None may answer 5xx; a 4xx says why; and none changes what is stored about
 * the caller (account, ledger, media, payments, jobs, orders).
 */
import { ALL_ROUTES, type RouteDef } from '../../contract/routes';
import { PACK_72 } from '../support/payments';
import {
  authHeader,
  firstProblems,
  fixtureAlive,
  jsonOf,
  paramsOf,
  routeCases,
  routeNamed,
  runCases,
  sample,
  storedStateOf,
  userWithHistory,
  type FuzzCase,
  type UserWithHistory,
} from '../support/fuzz';

/** A body each route accepts, for the fuzzer to break. Routes not listed get random bodies only. */
const EXAMPLES: Record<string, Record<string, unknown>> = {
  createUpload: { contentType: 'image/png', size: 1000, purpose: 'image' },
  generateImage: { prompt: 'a red fox', image: 'users/x/images/1.png' },
  generateVideo: { prompt: 'a red fox', model: 'pixverse/pixverse-v4.5', duration: 5, quality: '720p' },
  generations: { model: 'kling', prompt: 'a red fox', options: { quality: '1080p', duration: 5 }, inputs: { startImage: 'users/x/images/1.png', endImage: 'abc123' } },
  cancelJob: { acceptCharge: true },
  createPaypalPayment: { withdrawalConsent: true, amount: PACK_72.amount, credits: PACK_72.credits, returnPath: '/generator' },
  shareMedia: { showPrompt: false },
  createSubscription: { planId: 'plan-starter', returnPath: '/pricing' },
  changeSubscription: { planId: 'plan-creator' },
};

/** Routes that rightly carry out a request naming the caller's own media item, whatever else it holds. */
const OWN_ITEM_ROUTES = ['deleteMedia', 'favoriteMedia', 'unfavoriteMedia', 'unshareMedia'];

const userRoutes = ALL_ROUTES.filter((r) => r.auth === 'user');
let fixture: UserWithHistory;
/** What is stored about the fixture: as it was made, and as each route's cases must leave it. */
let stored: string;

beforeAll(async () => {
  fixture = await userWithHistory();
  stored = await storedStateOf(fixture.user.sub);
}, 120_000);

/**
 * Only bad input: a case the route could rightly carry out (a valid body with the caller's token, or the caller's own
 * media id for a delete) is left out, so that every case must leave the store as it was.
 */
function isBadInput(route: RouteDef, c: FuzzCase): boolean {
  if (c.method !== route.method || c.headers.authorization !== `Bearer ${fixture.user.idToken}`) return true;
  if (route.request && route.request.safeParse(jsonOf(c.body)).success) return false;
  if (OWN_ITEM_ROUTES.includes(route.id) && paramsOf(route, c)?.id === fixture.mediaId) return false;
  // DELETE /api/me with the caller's fresh token is a valid request: it would delete the fixture.
  if (route.id === 'deleteAccount') return false;
  return true;
}

describe('fuzzing the signed-in routes', () => {
  it('covers every signed-in route', () => {
    expect(userRoutes.map((r) => r.id)).toEqual(expect.arrayContaining(['me', 'generateImage', 'checkStatus', 'deleteMedia', 'createPaypalPayment', 'listPayments']));
  });

  it('swaps a method only where the swapped request names no other route', () => {
    // With any method at all, GET /api/me became DELETE /api/me with the fixture's token.
    for (const [i, route] of userRoutes.entries()) {
      const swapped = sample(routeCases(route, { auth: authHeader(fixture.user.idToken), bodies: false }), 1_000 + i, 600).filter((c) => c.method !== route.method);
      expect(swapped.length).toBeGreaterThan(0);
      for (const c of swapped) expect([route.id, c.method, c.path.slice(0, 80), routeNamed(c.method, c.path)?.id]).toEqual([route.id, c.method, c.path.slice(0, 80), undefined]);
    }
  });

  it.each(userRoutes.map((r, i) => [r.id, r, i] as const))('%s: no 5xx, a message with each 4xx, nothing stored changes', async (_id, route, i) => {
    const arb = routeCases(route, {
      auth: authHeader(fixture.user.idToken),
      example: EXAMPLES[route.id],
      knownParams: { predictionId: fixture.jobId, id: fixture.mediaId },
    });
    const cases = sample(arb, 1_000 + i).filter((c) => isBadInput(route, c));
    // DELETE /api/me takes nothing but the token: its bad cases are the wrong methods and tokens only.
    expect(cases.length).toBeGreaterThan(route.id === 'deleteAccount' ? 50 : 200);
    const run = await runCases(
      route.id,
      cases,
      (c, a) => (route.method !== 'GET' && c.method !== 'GET' && a.status < 400 ? `carried out bad input (${a.status})` : undefined),
      6,
      // Checked after each batch, and after each DELETE on /api/me (junk after it included): no other case names that
      // route (the test above: no swapped method does).
      { check: fixtureAlive(fixture.user.sub), mayBreak: (c) => c.method === 'DELETE' && /^\/api\/me\b/i.test(c.path) },
    );
    expect(firstProblems(run)).toBe('');
    // The state the previous route left (each route's is compared): one read per route, not two.
    const before = stored;
    stored = await storedStateOf(fixture.user.sub);
    expect(stored).toBe(before);
  });
});

