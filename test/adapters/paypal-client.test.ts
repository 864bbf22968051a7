/** The PayPal adapter against the embedded stack's PayPal simulator (OAuth, Orders v2, webhook verification). */
import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { randomUUID } from 'node:crypto';
import { paypalApi, paypalClient } from '../../lambdas/adapters/paypal-client';
import type { PaypalApiOptions } from '../../lambdas/adapters/paypal-api';
import { paypalWebhooks } from '../../lambdas/adapters/paypal-webhooks';
import { OrderNotApproved, PaymentProviderUnavailable, PaymentRefused, type NewProviderOrder } from '../../lambdas/ports/payments';
import { decideAtPaypal } from '../support/payments';
import { stackEnv } from '../support/users';

function counted(extra: Partial<PaypalApiOptions> = {}, intercept?: (url: string, init: RequestInit) => RequestInit | 'fail' | undefined) {
  const env = stackEnv();
  const calls: string[] = [];
  const fetchImpl: typeof fetch = async (input, init = {}) => {
    const url = String(input);
    calls.push(`${init.method ?? 'GET'} ${new URL(url).pathname}`);
    const changed = intercept?.(url, init) ?? init;
    if (changed === 'fail') throw new TypeError('fetch failed');
    return fetch(input, changed);
  };
  const api = paypalApi({ baseUrl: env.PAYPAL_BASE_URL!, clientId: LOCAL_SECRETS.paypalClientId, clientSecret: LOCAL_SECRETS.paypalClientSecret, fetchImpl, ...extra });
  const client = paypalClient(api);
  const webhooks = paypalWebhooks(api, LOCAL_SECRETS.paypalWebhookId);
  return { client, webhooks, calls, tokenCalls: () => calls.filter((c) => c.endsWith('/v1/oauth2/token')).length };
}

const order = (over: Partial<NewProviderOrder> = {}): NewProviderOrder => ({
  requestId: randomUUID(),
  amount: { currency: 'USD', value: '6.99' },
  customId: 'sub-123',
  description: 'Framewright: 72 credits',
  itemName: '72 credits',
  referenceId: 'pack-72',
  returnUrl: 'http://app.test/api/paypal/return',
  cancelUrl: 'http://app.test/api/paypal/cancel',
  brandName: 'Framewright',
  ...over,
});

describe('paypalClient', () => {
  it('gets one token for many calls, shared by concurrent callers, and a new one when it nears expiry', async () => {
    let clock = Date.now();
    const { client, tokenCalls } = counted({ now: () => clock });
    await Promise.all([client.createOrder(order()), client.createOrder(order()), client.getOrder('NOSUCHORDER000000').catch(() => undefined)]);
    await client.createOrder(order());
    expect(tokenCalls()).toBe(1);
    clock += 9 * 3600 * 1000; // the simulator's tokens last 32,400 s
    await client.createOrder(order());
    expect(tokenCalls()).toBe(2);
  });

  it('creates an order awaiting the buyer, once per request id, for immediate payment only', async () => {
    const bodies: string[] = [];
    const { client } = counted({}, (url, init) => {
      if (url.endsWith('/v2/checkout/orders')) bodies.push(String(init.body));
      return undefined;
    });
    const requestId = randomUUID();
    const a = await client.createOrder(order({ requestId }));
    const b = await client.createOrder(order({ requestId }));
    expect(b.id).toBe(a.id);
    expect(a).toMatchObject({ status: 'PAYER_ACTION_REQUIRED', amount: { currency: 'USD', value: '6.99' }, customId: 'sub-123', captures: [] });
    expect(a.approvalUrl).toBe(`${stackEnv().PAYPAL_BASE_URL}/checkoutnow?token=${a.id}`);
    expect(JSON.parse(bodies[0]!).payment_source.paypal.experience_context.payment_method_preference).toBe('IMMEDIATE_PAYMENT_REQUIRED');
  });

  it('reads a capture with the order it belongs to', async () => {
    const { client } = counted();
    const created = await client.createOrder(order());
    await decideAtPaypal(created.approvalUrl!, 'approve');
    const captured = await client.captureOrder(created.id, randomUUID());
    expect(await client.getCapture(captured.captures[0]!.id)).toEqual({ ...captured.captures[0], orderId: created.id });
    await expect(client.getCapture('NOSUCHCAPTURE0000')).rejects.toMatchObject({ status: 404 });
  });

  it('captures an approved order; an unapproved or unknown one is refused with PayPal\u2019s reason', async () => {
    const { client } = counted();
    const created = await client.createOrder(order());
    await expect(client.captureOrder(created.id, randomUUID())).rejects.toBeInstanceOf(OrderNotApproved);
    await decideAtPaypal(created.approvalUrl!, 'approve');
    const requestId = randomUUID();
    const captured = await client.captureOrder(created.id, requestId);
    expect(captured).toMatchObject({ id: created.id, status: 'COMPLETED', customId: 'sub-123' });
    expect(captured.captures).toEqual([{ id: expect.stringMatching(/^[A-Z0-9]{17}$/), status: 'COMPLETED', amount: { currency: 'USD', value: '6.99' }, customId: 'sub-123' }]);
    // The same request id replays the capture instead of failing.
    expect(await client.captureOrder(created.id, requestId)).toEqual(captured);
    const err = await client.getOrder('NOSUCHORDER000000').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(PaymentRefused);
    expect(err).toMatchObject({ status: 404, providerError: 'RESOURCE_NOT_FOUND' });
  });

  it('renews a token PayPal no longer accepts, and retries a dropped connection with the same request id', async () => {
    let spoiled = false;
    const { client, tokenCalls } = counted({}, (url, init) => {
      if (!spoiled && url.includes('/v2/checkout/orders')) {
        spoiled = true;
        return { ...init, headers: { ...(init.headers as Record<string, string>), authorization: 'Bearer revoked' } };
      }
      return init;
    });
    await client.createOrder(order());
    expect(tokenCalls()).toBe(2);

    let dropped = 0;
    const flaky = counted({}, (url) => (url.endsWith('/v2/checkout/orders') && dropped++ === 0 ? 'fail' : undefined));
    const requestId = randomUUID();
    const a = await flaky.client.createOrder(order({ requestId }));
    expect(flaky.calls.filter((c) => c === 'POST /v2/checkout/orders')).toHaveLength(2);
    expect((await flaky.client.createOrder(order({ requestId }))).id).toBe(a.id);
  });

  it('reports wrong credentials and an unreachable PayPal as unavailable', async () => {
    await expect(counted({ clientSecret: 'wrong' }).client.createOrder(order())).rejects.toBeInstanceOf(PaymentProviderUnavailable);
    await expect(counted({ baseUrl: 'http://127.0.0.1:9', timeoutMs: 2000 }).client.getOrder('X')).rejects.toBeInstanceOf(PaymentProviderUnavailable);
  });

  it('does not confirm webhooks without PayPal\u2019s transmission headers or with made-up ones', async () => {
    const { webhooks, calls } = counted();
    const rawBody = JSON.stringify({ id: 'WH-1', event_type: 'CHECKOUT.ORDER.APPROVED', resource: { id: 'X' } });
    expect(await webhooks.parse({ headers: {}, rawBody, query: {} })).toBeUndefined();
    expect(calls).toHaveLength(0);
    const headers = {
      'paypal-auth-algo': 'SHA256withRSA',
      'paypal-cert-url': `${stackEnv().PAYPAL_BASE_URL}/v1/notifications/certs/CERT-x`,
      'paypal-transmission-id': randomUUID(),
      'paypal-transmission-sig': 'c2ln',
      'paypal-transmission-time': new Date().toISOString(),
    };
    expect(await webhooks.parse({ headers, rawBody, query: {} })).toBeUndefined();
    expect(await webhooks.parse({ headers, rawBody: 'not json', query: {} })).toBeUndefined();
  });
});
