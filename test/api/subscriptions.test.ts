/**
 * The plan routes' contract through the embedded stack: GET /api/plans public and cacheable; POST /api/subscriptions,
 * GET /api/subscription, POST /api/subscription/cancel and /change need a token; bad input gets a 4xx with its message
 * and stores nothing; the answers have the shapes the issue promises. One subscriber goes through PayPal's page once.
 * The public return from PayPal answers the same redirect for any id, reading and changing nothing.
 */
import { Messages } from '../../contract/errors';
import { CURRENCY } from '../../contract/packs';
import { PLANS } from '../../contract/plans';
import { ApprovalResponse, PlansResponse, SubscriptionView } from '../../contract/subscriptions';
import { userItems } from '../support/generation';
import { scanItems, visit, waitUntil } from '../support/payments';
import { decideSubscription, startSubscription, subscribe, subscriptionOf } from '../support/subscriptions';
import { api, createAccount, stackUrl, WELCOME_CREDITS, type TestUser } from '../support/users';

const STARTER = PLANS[0]!;
const CREATOR = PLANS[1]!;

const post = (user: TestUser | undefined, path: string, body?: unknown, headers: Record<string, string> = {}) =>
  api(user, path, { method: 'POST', headers, ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }) });
const answer = async (res: Response) => ({ status: res.status, body: (await res.json()) as Record<string, unknown> });
const refused = (status: number, error: string) => ({ status, body: expect.objectContaining({ error }) });

describe('plan routes', () => {
  let user: TestUser;
  let subscriber: TestUser;
  let subscriptionId: string;
  beforeAll(async () => {
    [user, subscriber] = await Promise.all([createAccount(), createAccount()]);
    ({ id: subscriptionId } = await subscribe(subscriber, STARTER.id, '/pricing'));
  });

  it('GET /api/plans: public, cacheable, each plan with id, name, monthly price and credits', async () => {
    const res = await fetch(`${stackUrl()}/api/plans`);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=300');
    const body = await res.json();
    expect(PlansResponse.strict().parse(body)).toEqual({ plans: PLANS.map((p) => ({ id: p.id, name: p.name, price: p.price, currency: CURRENCY, credits: p.credits })) });
  });

  it('the signed-in routes answer 401 without a token, and change nothing', async () => {
    const calls: Array<[string, string, unknown?]> = [
      ['POST', '/api/subscriptions', { withdrawalConsent: true, planId: STARTER.id }],
      ['GET', '/api/subscription'],
      ['POST', '/api/subscription/cancel'],
      ['POST', '/api/subscription/change', { planId: CREATOR.id }],
    ];
    for (const [method, path, body] of calls) {
      const res = method === 'GET' ? await api(undefined, path) : await post(undefined, path, body);
      expect({ path, status: res.status, body: await res.json() }).toEqual({ path, status: 401, body: { message: 'Unauthorized' } });
    }
    const badToken = await api(undefined, '/api/subscription', { headers: { authorization: 'Bearer not-a-jwt' } });
    expect(badToken.status).toBe(401);
    expect((await subscriptionOf(subscriber)).status).toBe('active');
  });

  it('GET /api/subscription: status none with the welcome credits before any plan', async () => {
    const res = await answer(await api(user, '/api/subscription'));
    expect(res).toEqual({ status: 200, body: { status: 'none', planCredits: 0, packCredits: WELCOME_CREDITS } });
  });

  it('GET /api/subscription: the subscriber plan with PayPal id, status, next billing date and both kinds of credits', async () => {
    const res = await answer(await api(subscriber, '/api/subscription'));
    expect(res.status).toBe(200);
    expect(SubscriptionView.strict().parse(res.body)).toEqual({
      id: subscriptionId,
      planId: STARTER.id,
      status: 'active',
      nextBillingAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      planCredits: STARTER.credits,
      packCredits: WELCOME_CREDITS,
    });
    expect(subscriptionId).toMatch(/^I-[A-Z0-9]+$/);
  });

  it('POST /api/subscriptions refuses bad input with its message and stores nothing', async () => {
    const cases: Array<[string, unknown, number, string, Record<string, string>?]> = [
      ['an unknown plan', { planId: 'plan-free' }, 400, Messages.invalidPlan],
      ['no plan', {}, 400, Messages.invalidPlan],
      ['a plan id that is not text', { planId: 7 }, 400, Messages.invalidPlan],
      ['an array', [STARTER.id], 400, Messages.invalidPlan],
      ['no body', undefined, 400, Messages.invalidPlan],
      ['a return page not allowed', { planId: STARTER.id, returnPath: 'https://evil.example/' }, 400, Messages.invalidReturnPath],
      ['no withdrawal consent', { planId: STARTER.id }, 400, Messages.withdrawalConsentRequired],
      ['withdrawal consent refused', { planId: STARTER.id, withdrawalConsent: false }, 400, Messages.withdrawalConsentRequired],
      ['malformed JSON', '{"planId": ', 400, Messages.invalidJson],
      ['a body that is not JSON', 'planId=plan-starter', 415, Messages.jsonOnly, { 'content-type': 'application/x-www-form-urlencoded' }],
    ];
    for (const [what, body, status, error, headers] of cases) {
      const res = await answer(await post(user, '/api/subscriptions', body, headers));
      expect({ what, ...res }).toEqual({ what, ...refused(status, error) });
    }
    expect(await subscriptionOf(user)).toEqual({ status: 'none', planCredits: 0, packCredits: WELCOME_CREDITS });
  });

  it('POST /api/subscriptions answers PayPal approval page; a second while one is active is 409', async () => {
    const res = await answer(await post(user, '/api/subscriptions', { withdrawalConsent: true, planId: CREATOR.id, returnPath: '/pricing' }));
    expect(res.status).toBe(200);
    expect(ApprovalResponse.strict().parse(res.body).approvalUrl).toMatch(/\/webapps\/billing\/subscriptions\?ba_token=/);
    // Not approved yet: pending, nothing granted.
    expect(await subscriptionOf(user)).toMatchObject({ planId: CREATOR.id, status: 'pending', planCredits: 0 });
    // The buyer's withdrawal consent is kept with the plan, with when it was given.
    const [plan] = await userItems(user.sub, 'SUBSCRIPTION');
    expect(plan).toMatchObject({ subscriptionId: expect.any(String), withdrawalConsentAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });

    const twice = await answer(await post(subscriber, '/api/subscriptions', { withdrawalConsent: true, planId: CREATOR.id }));
    expect(twice).toEqual(refused(409, Messages.alreadySubscribed));
    expect(await subscriptionOf(subscriber)).toMatchObject({ id: subscriptionId, planId: STARTER.id, status: 'active' });
  });

  it('GET /api/paypal/subscription-return without a session says nothing of any plan and changes nothing: one answer for every id', async () => {
    // `user`'s plan is pending (never approved), `subscriber`'s active: someone else's ids, opened with no session.
    const [pendingPlan] = await userItems(user.sub, 'SUBSCRIPTION');
    const pendingId = String(pendingPlan!.subscriptionId);
    const keys = { ':a': `USER#${user.sub}`, ':b': `USER#${subscriber.sub}`, ':c': `SUBSCRIPTION#${pendingId}`, ':d': `SUBSCRIPTION#${subscriptionId}` };
    const items = async () => (await scanItems('pk IN (:a, :b, :c, :d)', keys)).sort((x, y) => `${x.pk}${x.sk}`.localeCompare(`${y.pk}${y.sk}`));
    const before = await items();
    const ids = [subscriptionId, pendingId, 'I-MADEUP0000001', 'not-an-id', undefined];
    const returns = (to?: string) =>
      Promise.all(
        ids.map(async (id) => {
          const query = new URLSearchParams({ ...(to === undefined ? {} : { to }), ...(id ? { subscription_id: id, ba_token: 'BA-1', token: 'EC-1' } : {}) });
          const res = await visit(`/api/paypal/subscription-return?${query.toString()}`);
          return { status: res.status, location: res.location };
        }),
      );
    expect(await returns()).toEqual(ids.map(() => ({ status: 302, location: '/?subscription=returned' })));
    expect(await returns('/pricing')).toEqual(ids.map(() => ({ status: 302, location: '/pricing?subscription=returned' })));
    expect(await returns('/admin')).toEqual(ids.map(() => ({ status: 302, location: '/admin?subscription=returned' })));
    // A page not on the list is never a redirect target.
    expect(await returns('https://evil.example/')).toEqual(ids.map(() => ({ status: 302, location: '/?subscription=returned' })));
    expect(await returns('//evil.example')).toEqual(ids.map(() => ({ status: 302, location: '/?subscription=returned' })));
    expect(await items()).toEqual(before);
    // The owners see their plans as they were.
    expect(await subscriptionOf(user)).toMatchObject({ id: pendingId, status: 'pending', planCredits: 0 });
    expect(await subscriptionOf(subscriber)).toMatchObject({ id: subscriptionId, status: 'active', planCredits: STARTER.credits });
  });

  it('POST /api/subscription/change: 400 for an unknown plan, 409 for the same plan or without an active one; else PayPal page', async () => {
    expect(await answer(await post(subscriber, '/api/subscription/change', { planId: 'plan-free' }))).toEqual(refused(400, Messages.invalidPlan));
    expect(await answer(await post(subscriber, '/api/subscription/change', 'nope'))).toEqual(refused(400, Messages.invalidJson));
    expect(await answer(await post(subscriber, '/api/subscription/change', { planId: CREATOR.id, returnPath: '//evil.example' }))).toEqual(refused(400, Messages.invalidReturnPath));
    expect(await answer(await post(subscriber, '/api/subscription/change', { planId: STARTER.id }))).toEqual(refused(409, Messages.samePlan));
    // `user` has a plan waiting for approval only.
    expect(await answer(await post(user, '/api/subscription/change', { planId: STARTER.id }))).toEqual(refused(409, Messages.noSubscription));
    const res = await answer(await post(subscriber, '/api/subscription/change', { planId: CREATOR.id, returnPath: '/admin' }));
    expect(res.status).toBe(200);
    expect(ApprovalResponse.strict().parse(res.body).approvalUrl).toMatch(/ba_token=/);
    // Until the buyer approves at PayPal, the plan is unchanged; approved, PayPal brings them back to My Account.
    expect(await subscriptionOf(subscriber)).toMatchObject({ planId: STARTER.id, status: 'active' });
    const landed = await visit(await decideSubscription(String(res.body.approvalUrl), 'approve'));
    expect(landed.location).toBe('/admin?subscription=returned');
    // PayPal's BILLING.SUBSCRIPTION.UPDATED records the change: Creator is billed from the next cycle.
    const changed = await waitUntil('the change to show', async () => {
      const s = await subscriptionOf(subscriber);
      return s.nextPlanId === CREATOR.id ? s : undefined;
    });
    expect(changed).toMatchObject({ planId: STARTER.id, nextPlanId: CREATOR.id, status: 'active', planCredits: STARTER.credits });
  });

  it('POST /api/subscription/cancel: 409 without an active plan; cancels at PayPal and answers the plan, credits kept', async () => {
    expect(await answer(await post(user, '/api/subscription/cancel'))).toEqual(refused(409, Messages.noSubscription));
    const res = await answer(await post(subscriber, '/api/subscription/cancel'));
    expect(res.status).toBe(200);
    // The change to Creator was approved but never paid: the plan that ends is the Starter month paid for.
    expect(SubscriptionView.strict().parse(res.body)).toEqual({ id: subscriptionId, planId: STARTER.id, status: 'cancelled', planCredits: STARTER.credits, packCredits: WELCOME_CREDITS });
    expect(await answer(await post(subscriber, '/api/subscription/cancel'))).toEqual(refused(409, Messages.noSubscription));
    // A new plan may begin once the old one is cancelled.
    expect((await post(subscriber, '/api/subscriptions', { withdrawalConsent: true, planId: CREATOR.id })).status).toBe(200);
    expect(await startSubscription(user, STARTER.id)).toMatch(/ba_token=/);
  });
});
