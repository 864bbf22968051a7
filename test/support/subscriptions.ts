/**
 * Plans against the embedded stack's PayPal simulator, without a browser: PayPal's approval page's forms are posted
 * with fetch as the page would, redirects are read, not followed, and the simulator's dashboard bills a month now.
 */
import { api, stackEnv, type TestUser } from './users';
import { scanItems, visit, waitUntil } from './payments';

/** POST /api/subscriptions, answered 200 with PayPal's approval page. */
export async function startSubscription(user: TestUser, planId: string, returnPath = '/pricing'): Promise<string> {
  const res = await api(user, '/api/subscriptions', { method: 'POST', body: JSON.stringify({ withdrawalConsent: true, planId, returnPath }) });
  const body = (await res.json()) as { approvalUrl: string };
  if (res.status !== 200) throw new Error(`subscribe ${res.status}: ${JSON.stringify(body)}`);
  return body.approvalUrl;
}

/** Opens PayPal's approval page, presses Agree (or Cancel), and returns where PayPal sends the browser. */
export async function decideSubscription(approvalUrl: string, action: 'approve' | 'cancel'): Promise<string> {
  const page = await fetch(approvalUrl);
  const html = await page.text();
  if (page.status !== 200 || !html.includes(`action="/webapps/billing/subscriptions/${action}"`)) throw new Error(`approval page ${page.status}: ${html.slice(0, 300)}`);
  const token = new URL(approvalUrl).searchParams.get('ba_token')!;
  const res = await fetch(new URL(`/webapps/billing/subscriptions/${action}`, approvalUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ ba_token: token }).toString(),
  });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`PayPal ${action}: ${res.status} ${await res.text()}`);
  return location;
}

export interface SubscriptionAnswer {
  id?: string;
  planId?: string;
  status: string;
  nextBillingAt?: string;
  nextPlanId?: string;
  planCredits: number;
  packCredits: number;
  problem?: string;
}

export async function subscriptionOf(user: TestUser): Promise<SubscriptionAnswer> {
  const res = await api(user, '/api/subscription');
  if (res.status !== 200) throw new Error(`GET /api/subscription ${res.status}`);
  return (await res.json()) as SubscriptionAnswer;
}

/**
 * Subscribes through PayPal's page and the return, then asks GET /api/subscription as the page the buyer lands on does
 * (it reads the pending plan at PayPal); answers the subscription id, where the browser landed and the plan then.
 */
export async function subscribe(user: TestUser, planId = 'plan-starter', returnPath = '/pricing') {
  const back = await decideSubscription(await startSubscription(user, planId, returnPath), 'approve');
  const id = new URL(back).searchParams.get('subscription_id')!;
  const landed = await visit(back);
  const plan = await subscriptionOf(user);
  return { id, landed: landed.location, plan };
}

/** The simulator's controls: bill the next cycle now (completed or failed), suspend, reactivate or cancel at PayPal. */
export async function atPaypal(id: string, action: 'bill' | 'suspend' | 'reactivate' | 'cancel', outcome?: 'completed' | 'failed') {
  const res = await fetch(`${stackEnv().PAYPAL_BASE_URL}/simulator/subscriptions/${id}/${action}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(outcome ? { outcome } : {}),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
}

/** The PayPal events our API has handled about a subscription or one of its sales. */
export function handledAbout(ids: string[]) {
  return scanItems('begins_with(pk, :p)', { ':p': 'WEBHOOK#paypal:' }).then((all) => all.filter((e) => ids.includes(String(e.orderId ?? ''))));
}

/** Waits until the account's balance is `credits`. */
export async function creditsBecome(user: TestUser, credits: number) {
  let last: number | undefined;
  try {
    return await waitUntil(`credits to be ${credits}`, async () => {
      const me = (await (await api(user, '/api/me')).json()) as { credits: number };
      last = me.credits;
      return me.credits === credits ? me : undefined;
    });
  } catch (err) {
    // Say where the balance stopped, and the ledger that made it.
    const rows = (await scanItems('pk = :pk AND begins_with(sk, :l)', { ':pk': `USER#${user.sub}`, ':l': 'LEDGER#' })).map((l) => [l.reason, l.delta, l.ref]);
    throw new Error(`${(err as Error).message}: the balance is ${String(last)}; ledger ${JSON.stringify(rows)}`);
  }
}
