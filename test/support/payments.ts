/**
 * Buying credits against the embedded stack's PayPal simulator, without a browser: the approval page's forms are
 * posted with fetch exactly as the page would, and redirects are read, not followed, so a test sees each hop.
 */
import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { GetCommand, ScanCommand } from '@aws-sdk/lib-dynamodb';
import { CREDIT_PACKS, type CreditPack } from '../../contract/packs';
import { dynamo } from '../../lambdas/adapters/aws-clients';
import { api, stackEnv, stackUrl, type TestUser } from './users';

export const PACK_72 = CREDIT_PACKS[0]!;
export const PACK_150 = CREDIT_PACKS[1]!;

/** POST /api/create-paypal-payment for a pack, optionally with the app page to come back to. */
export async function startPayment(user: TestUser, pack: CreditPack = PACK_72, returnPath?: string): Promise<{ paymentUrl: string; orderId: string }> {
  const body = { withdrawalConsent: true, amount: pack.amount, credits: pack.credits, ...(returnPath !== undefined ? { returnPath } : {}) };
  const res = await api(user, '/api/create-paypal-payment', { method: 'POST', body: JSON.stringify(body) });
  const answer = await res.json();
  if (res.status !== 200) throw new Error(`create-paypal-payment ${res.status}: ${JSON.stringify(answer)}`);
  return answer as { paymentUrl: string; orderId: string };
}

/** A GET that does not follow redirects: the status and where it points. */
export async function visit(url: string): Promise<{ status: number; location: string | null }> {
  const res = await fetch(url.startsWith('http') ? url : `${stackUrl()}${url}`, { redirect: 'manual' });
  await res.arrayBuffer();
  return { status: res.status, location: res.headers.get('location') };
}

/**
 * Opens PayPal's approval page and presses a button, with the funding outcome chosen on the page (approve only);
 * returns where PayPal sends the browser (our return or cancel URL).
 */
export async function decideAtPaypal(paymentUrl: string, action: 'approve' | 'cancel', funding?: 'COMPLETED' | 'PENDING' | 'DECLINED' | 'INSTRUMENT_DECLINED'): Promise<string> {
  const page = await fetch(paymentUrl);
  const html = await page.text();
  if (page.status !== 200 || !html.includes(`action="/checkoutnow/${action}"`)) throw new Error(`approval page ${page.status}: ${html.slice(0, 300)}`);
  const token = new URL(paymentUrl).searchParams.get('token')!;
  const res = await fetch(new URL(`/checkoutnow/${action}`, paymentUrl), {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ token, ...(funding ? { funding } : {}) }).toString(),
  });
  const location = res.headers.get('location');
  if (res.status !== 302 || !location) throw new Error(`PayPal ${action}: ${res.status} ${await res.text()}`);
  return location;
}

let paypalToken: string | undefined;

/** The simulator's REST API, as our server sees it (same credentials). */
export async function paypalApi(method: 'GET' | 'POST', path: string, body?: unknown): Promise<{ status: number; body: Record<string, any> }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  const env = stackEnv();
  if (!paypalToken) {
    const t = await fetch(`${env.PAYPAL_BASE_URL}/v1/oauth2/token`, {
      method: 'POST',
      headers: {
        authorization: `Basic ${Buffer.from(`${LOCAL_SECRETS.paypalClientId}:${LOCAL_SECRETS.paypalClientSecret}`).toString('base64')}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: 'grant_type=client_credentials',
    });
    paypalToken = ((await t.json()) as { access_token: string }).access_token;
  }
  const res = await fetch(`${env.PAYPAL_BASE_URL}${path}`, {
    method,
    headers: { authorization: `Bearer ${paypalToken}`, 'content-type': 'application/json', prefer: 'return=representation' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : {} };
}

export async function orderItem(orderId: string) {
  const res = await dynamo().send(new GetCommand({ TableName: stackEnv().TABLE_NAME, Key: { pk: `ORDER#${orderId}`, sk: 'ORDER' }, ConsistentRead: true }));
  return res.Item;
}

/** Every item matching a filter (test data is small: a scan is fine here, never in the app). */
export async function scanItems(filter: string, values: Record<string, unknown>, names?: Record<string, string>) {
  const items: Record<string, any>[] = []; // eslint-disable-line @typescript-eslint/no-explicit-any
  let start: Record<string, unknown> | undefined;
  do {
    const res = await dynamo().send(
      new ScanCommand({
        TableName: stackEnv().TABLE_NAME,
        FilterExpression: filter,
        ExpressionAttributeValues: values,
        ...(names ? { ExpressionAttributeNames: names } : {}),
        ConsistentRead: true,
        ...(start ? { ExclusiveStartKey: start } : {}),
      }),
    );
    items.push(...(res.Items ?? []));
    start = res.LastEvaluatedKey;
  } while (start);
  return items;
}

/** The PayPal webhook events our API has handled for an order. */
export function handledEvents(orderId: string) {
  return scanItems('begins_with(pk, :p) AND orderId = :o', { ':p': 'WEBHOOK#paypal:', ':o': orderId });
}

export async function waitUntil<T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Waits until both of PayPal's webhooks for a paid order (approved, capture completed) have been handled. */
export function bothWebhooksHandled(orderId: string) {
  return waitUntil(`webhooks of ${orderId}`, async () => {
    const events = await handledEvents(orderId);
    const types = new Set(events.map((e) => e.eventType));
    return types.has('CHECKOUT.ORDER.APPROVED') && types.has('PAYMENT.CAPTURE.COMPLETED') ? events : undefined;
  });
}

export function appPath(location: string | null): { path: string; params: Record<string, string> } {
  const u = new URL(location ?? '', 'http://app.invalid');
  return { path: u.pathname, params: Object.fromEntries(u.searchParams) };
}

/** The capture PayPal made for an order. */
export async function captureIdOf(orderId: string): Promise<string> {
  const o = (await paypalApi('GET', `/v2/checkout/orders/${orderId}`)).body;
  return o.purchase_units[0].payments.captures[0].id as string;
}

/** Refunds a capture at PayPal as the merchant would (all that is left, or `value` USD). */
export async function refundAtPaypal(captureId: string, value?: string) {
  const r = await paypalApi('POST', `/v2/payments/captures/${captureId}/refund`, value ? { amount: { currency_code: 'USD', value } } : undefined);
  if (r.status !== 201) throw new Error(`refund ${r.status}: ${JSON.stringify(r.body)}`);
  return r.body;
}

/** The simulator's dashboard actions (reverse, dispute, complete, deny, and resolving a dispute). */
export async function simulatorAction(path: string, body: Record<string, string> = {}) {
  const res = await fetch(`${stackEnv().PAYPAL_BASE_URL}${path}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const json = (await res.json()) as Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any
  if (!res.ok) throw new Error(`${path} ${res.status}: ${JSON.stringify(json)}`);
  return json;
}

/** The PayPal events our API has handled of one type for an order. */
export async function handledOfType(orderId: string, eventType: string) {
  return (await handledEvents(orderId)).filter((e) => e.eventType === eventType);
}
