/**
 * The PayPal simulator as a caller sees it: OAuth, Orders v2 (create, approve, capture), the approval page,
 * webhooks delivered to a local receiver and verify-webhook-signature.
 */
import http from 'node:http';
import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { crc32, startPaypalSimulator, type PaypalSim } from '../../local/paypal-sim';

const CLIENT_ID = 'sim-client-id';
const CLIENT_SECRET = 'sim-client-secret';
const WEBHOOK_ID = 'WH-SIM-0123456789';
const RETURN_URL = 'http://app.test/billing/return?pack=pack-72';
const CANCEL_URL = 'http://app.test/billing/cancel';

interface Received {
  headers: http.IncomingHttpHeaders;
  raw: string;
  body: { id: string; event_type: string; resource: Record<string, unknown> } & Record<string, unknown>;
}

let sim: PaypalSim;
let receiver: http.Server;
let receiverUrl: string;
const received: Received[] = [];
let token: string;

beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: req.headers, raw, body: JSON.parse(raw) as Received['body'] });
      res.writeHead(200).end();
    });
  });
  await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
  receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/api/webhooks/paypal`;
  sim = await startPaypalSimulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, webhookId: WEBHOOK_ID, webhookUrl: receiverUrl, webhookJitterMs: 0 });
  token = await getToken();
});

afterAll(async () => {
  await sim.close();
  await new Promise<void>((r) => receiver.close(() => r()));
});

const basic = (id: string, secret: string) => `Basic ${Buffer.from(`${id}:${secret}`).toString('base64')}`;

async function getToken(): Promise<string> {
  const r = await fetch(`${sim.url}/v1/oauth2/token`, {
    method: 'POST',
    headers: { authorization: basic(CLIENT_ID, CLIENT_SECRET), 'content-type': 'application/x-www-form-urlencoded' },
    body: 'grant_type=client_credentials',
  });
  const body = (await r.json()) as { access_token: string };
  return body.access_token;
}

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function api(method: string, path: string, body?: unknown, headers: Record<string, string> = {}): Promise<{ status: number; body: Json }> {
  const r = await fetch(`${sim.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await r.text();
  return { status: r.status, body: text ? (JSON.parse(text) as Json) : {} };
}

function orderRequest(overrides: { value?: string; currency?: string; customId?: string } = {}) {
  return {
    intent: 'CAPTURE',
    purchase_units: [
      {
        reference_id: 'pack-72',
        custom_id: overrides.customId ?? 'user-1:pack-72',
        description: 'Framewright 72 credits',
        amount: { currency_code: overrides.currency ?? 'USD', value: overrides.value ?? '6.99' },
      },
    ],
    payment_source: {
      paypal: {
        experience_context: {
          return_url: RETURN_URL,
          cancel_url: CANCEL_URL,
          brand_name: 'Framewright',
          user_action: 'PAY_NOW',
          shipping_preference: 'NO_SHIPPING',
        },
      },
    },
  };
}

async function createOrder(requestId?: string): Promise<string> {
  const r = await api('POST', '/v2/checkout/orders', orderRequest(), requestId ? { 'PayPal-Request-Id': requestId } : {});
  expect(r.status).toBe(201);
  return r.body.id as string;
}

const postForm = (path: string, form: Record<string, string>) =>
  fetch(`${sim.url}${path}`, {
    method: 'POST',
    redirect: 'manual',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams(form).toString(),
  });

async function waitFor<T>(fn: () => T | undefined, ms = 5000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = fn();
    if (v !== undefined) return v;
    if (Date.now() > end) throw new Error('timed out');
    await new Promise((r) => setTimeout(r, 20));
  }
}

describe('OAuth', () => {
  test('client credentials give a bearer token', async () => {
    const r = await fetch(`${sim.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basic(CLIENT_ID, CLIENT_SECRET), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(r.status).toBe(200);
    const body = (await r.json()) as Json;
    expect(body).toMatchObject({ token_type: 'Bearer', expires_in: 32400, app_id: expect.any(String), scope: expect.any(String), nonce: expect.any(String) });
    expect(body.access_token).toEqual(expect.any(String));
  });

  test('wrong credentials -> 401 invalid_client', async () => {
    const r = await fetch(`${sim.url}/v1/oauth2/token`, {
      method: 'POST',
      headers: { authorization: basic(CLIENT_ID, 'wrong'), 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    });
    expect(r.status).toBe(401);
    expect(await r.json()).toEqual({ error: 'invalid_client', error_description: 'Client Authentication failed' });
  });

  test('API calls without a valid bearer token -> 401 AUTHENTICATION_FAILURE', async () => {
    const r = await api('POST', '/v2/checkout/orders', orderRequest(), { authorization: 'Bearer not-a-token' });
    expect(r.status).toBe(401);
    expect(r.body).toMatchObject({ name: 'AUTHENTICATION_FAILURE', message: expect.any(String), debug_id: expect.any(String) });
  });
});

describe('orders', () => {
  test('create returns PAYER_ACTION_REQUIRED with a payer-action link; the same PayPal-Request-Id gives one order', async () => {
    const before = sim.orders().length;
    const requestId = crypto.randomUUID();
    const a = await api('POST', '/v2/checkout/orders', orderRequest(), { 'PayPal-Request-Id': requestId });
    expect(a.status).toBe(201);
    expect(a.body).toMatchObject({ id: expect.stringMatching(/^[A-Z0-9]{17}$/), status: 'PAYER_ACTION_REQUIRED', payment_source: { paypal: {} } });
    const links = a.body.links as { rel: string; href: string }[];
    expect(links.find((l) => l.rel === 'self')?.href).toBe(`${sim.url}/v2/checkout/orders/${a.body.id}`);
    expect(links.find((l) => l.rel === 'payer-action')?.href).toBe(`${sim.url}/checkoutnow?token=${a.body.id}`);

    const b = await api('POST', '/v2/checkout/orders', orderRequest(), { 'PayPal-Request-Id': requestId });
    expect(b.status).toBeLessThan(300);
    expect(b.body.id).toBe(a.body.id);
    expect(sim.orders().length).toBe(before + 1);

    const got = await api('GET', `/v2/checkout/orders/${a.body.id}`);
    expect(got.status).toBe(200);
    expect(got.body).toMatchObject({
      id: a.body.id,
      intent: 'CAPTURE',
      status: 'PAYER_ACTION_REQUIRED',
      purchase_units: [{ reference_id: 'pack-72', custom_id: 'user-1:pack-72', amount: { currency_code: 'USD', value: '6.99' } }],
    });
  });

  test('invalid requests are rejected with PayPal error names', async () => {
    const noAmount = orderRequest();
    delete (noAmount.purchase_units[0] as Partial<(typeof noAmount.purchase_units)[0]>).amount;
    const r1 = await api('POST', '/v2/checkout/orders', noAmount);
    expect(r1.status).toBe(400);
    expect(r1.body).toMatchObject({ name: 'INVALID_REQUEST', details: [{ issue: 'MISSING_REQUIRED_PARAMETER', field: '/purchase_units/0/amount' }] });

    const r2 = await api('POST', '/v2/checkout/orders', orderRequest({ value: '6.999' }));
    expect(r2.status).toBe(422);
    expect(r2.body).toMatchObject({ name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'DECIMAL_PRECISION' }] });

    const r3 = await api('POST', '/v2/checkout/orders', orderRequest({ value: '0.00' }));
    expect(r3.status).toBe(422);
    expect(r3.body.details[0].issue).toBe('CANNOT_BE_ZERO_OR_NEGATIVE');

    const r4 = await api('POST', '/v2/checkout/orders', orderRequest({ currency: 'usd' }));
    expect(r4.status).toBe(400);
    expect(r4.body.details[0]).toMatchObject({ field: '/purchase_units/0/amount/currency_code', issue: 'INVALID_PARAMETER_SYNTAX' });

    const r5 = await api('POST', '/v2/checkout/orders', { ...orderRequest(), intent: undefined });
    expect(r5.status).toBe(400);
    expect(r5.body.details[0]).toMatchObject({ field: '/intent', issue: 'MISSING_REQUIRED_PARAMETER' });
  });

  test('legacy application_context is accepted (status CREATED with an approve link, as on PayPal)', async () => {
    const { payment_source: _ignored, ...rest } = orderRequest();
    const r = await api('POST', '/v2/checkout/orders', { ...rest, application_context: { return_url: RETURN_URL, cancel_url: CANCEL_URL } });
    expect(r.status).toBe(201);
    expect(r.body.status).toBe('CREATED');
    expect((r.body.links as { rel: string }[]).map((l) => l.rel)).toContain('approve');
  });

  test('unknown order -> 404 RESOURCE_NOT_FOUND', async () => {
    const r = await api('GET', '/v2/checkout/orders/NOSUCHORDER000000');
    expect(r.status).toBe(404);
    expect(r.body).toMatchObject({ name: 'RESOURCE_NOT_FOUND', debug_id: expect.any(String), details: [{ issue: 'INVALID_RESOURCE_ID' }] });
    const c = await api('POST', '/v2/checkout/orders/NOSUCHORDER000000/capture');
    expect(c.status).toBe(404);
  });

  test('capture before approval -> 422 ORDER_NOT_APPROVED', async () => {
    const id = await createOrder();
    const r = await api('POST', `/v2/checkout/orders/${id}/capture`);
    expect(r.status).toBe(422);
    expect(r.body).toMatchObject({ name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_NOT_APPROVED' }] });
  });
});

describe('buyer approval and capture', () => {
  test('approval page shows merchant, description, amount and the two buttons', async () => {
    const id = await createOrder();
    const r = await fetch(`${sim.url}/checkoutnow?token=${id}`);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await r.text();
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('Framewright');
    expect(html).toContain('Framewright 72 credits');
    expect(html).toContain('$6.99');
    expect(html).toContain('USD');
    expect(html).toMatch(/<form method="post" action="\/checkoutnow\/approve"[^>]*>\s*<input type="hidden" name="token" value="[A-Z0-9]+">[\s\S]*?<select id="funding" name="funding"[\s\S]*?<button type="submit"[^>]*>Pay now<\/button>/);
    for (const outcome of ['COMPLETED', 'PENDING', 'DECLINED', 'INSTRUMENT_DECLINED']) expect(html).toContain(`<option value="${outcome}"`);
    expect(html).toMatch(/<form method="post" action="\/checkoutnow\/cancel"[^>]*>[\s\S]*?<button type="submit"[^>]*>Cancel and return<\/button>/);
    expect(html).not.toMatch(/<(script|link|img)\b/);
  });

  test('approve -> 302 to return_url with token and PayerID; capture -> COMPLETED; second capture -> ORDER_ALREADY_CAPTURED', async () => {
    const id = await createOrder();
    const approve = await postForm('/checkoutnow/approve', { token: id });
    expect(approve.status).toBe(302);
    const location = new URL(approve.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe('http://app.test/billing/return');
    expect(location.searchParams.get('pack')).toBe('pack-72');
    expect(location.searchParams.get('token')).toBe(id);
    expect(location.searchParams.get('PayerID')).toMatch(/^[A-Z0-9]{13}$/);

    const approved = await api('GET', `/v2/checkout/orders/${id}`);
    expect(approved.body).toMatchObject({
      status: 'APPROVED',
      payer: { email_address: 'sb-buyer@personal.example.com', payer_id: location.searchParams.get('PayerID'), name: { given_name: expect.any(String) } },
    });

    const requestId = crypto.randomUUID();
    const cap = await api('POST', `/v2/checkout/orders/${id}/capture`, undefined, { 'PayPal-Request-Id': requestId });
    expect(cap.status).toBe(201);
    expect(cap.body.status).toBe('COMPLETED');
    const capture = cap.body.purchase_units[0].payments.captures[0];
    expect(capture).toMatchObject({
      id: expect.stringMatching(/^[A-Z0-9]{17}$/),
      status: 'COMPLETED',
      amount: { currency_code: 'USD', value: '6.99' },
      final_capture: true,
      custom_id: 'user-1:pack-72',
      seller_protection: { status: 'ELIGIBLE' },
      create_time: expect.any(String),
    });

    const replay = await api('POST', `/v2/checkout/orders/${id}/capture`, undefined, { 'PayPal-Request-Id': requestId });
    expect(replay.status).toBe(201);
    expect(replay.body).toEqual(cap.body);

    const again = await api('POST', `/v2/checkout/orders/${id}/capture`, undefined, { 'PayPal-Request-Id': crypto.randomUUID() });
    expect(again.status).toBe(422);
    expect(again.body).toMatchObject({ name: 'UNPROCESSABLE_ENTITY', details: [{ issue: 'ORDER_ALREADY_CAPTURED' }] });

    const got = await api('GET', `/v2/checkout/orders/${id}`);
    expect(got.body.status).toBe('COMPLETED');
    expect(got.body.purchase_units[0].payments.captures).toHaveLength(1);

    const page = await fetch(`${sim.url}/checkoutnow?token=${id}`);
    expect(page.status).toBe(410);
    expect(await page.text()).toContain('already been completed');
  });

  test('20 concurrent captures: exactly one succeeds', async () => {
    const id = await createOrder();
    sim.approve(id);
    const results = await Promise.all(
      Array.from({ length: 20 }, () => api('POST', `/v2/checkout/orders/${id}/capture`, undefined, { 'PayPal-Request-Id': crypto.randomUUID() })),
    );
    const ok = results.filter((r) => r.status >= 200 && r.status < 300);
    expect(ok).toHaveLength(1);
    expect(results.filter((r) => r.status === 422)).toHaveLength(19);
    const order = sim.orders().find((o) => o.id === id);
    expect(order?.purchase_units[0]?.payments?.captures).toHaveLength(1);
  });

  test('cancel -> 302 to cancel_url with the token; the order is not approved', async () => {
    const id = await createOrder();
    const r = await postForm('/checkoutnow/cancel', { token: id });
    expect(r.status).toBe(302);
    const location = new URL(r.headers.get('location') ?? '');
    expect(`${location.origin}${location.pathname}`).toBe(CANCEL_URL);
    expect(location.searchParams.get('token')).toBe(id);
    expect((await api('GET', `/v2/checkout/orders/${id}`)).body.status).toBe('PAYER_ACTION_REQUIRED');
  });

  test('unknown token -> 404 HTML page', async () => {
    const r = await fetch(`${sim.url}/checkoutnow?token=NOSUCHORDER000000`);
    expect(r.status).toBe(404);
    expect(await r.text()).toContain('Checkout not found');
    const p = await postForm('/checkoutnow/approve', { token: 'NOSUCHORDER000000' });
    expect(p.status).toBe(404);
  });
});

describe('webhooks', () => {
  test('both events arrive signed; verify-webhook-signature accepts genuine and rejects tampered ones', async () => {
    const customId = `user-wh:${crypto.randomUUID()}`;
    const created = await api('POST', '/v2/checkout/orders', orderRequest({ customId }));
    const id = created.body.id as string;
    const approve = await postForm('/checkoutnow/approve', { token: id });
    expect(approve.status).toBe(302);
    const approvedEvent = await waitFor(() => received.find((e) => e.body.event_type === 'CHECKOUT.ORDER.APPROVED' && e.body.resource.id === id));
    expect(approvedEvent.body).toMatchObject({
      id: expect.stringMatching(/^WH-/),
      event_version: '1.0',
      resource_type: 'checkout-order',
      summary: expect.any(String),
      create_time: expect.any(String),
      resource: { id, status: 'APPROVED', purchase_units: [{ custom_id: customId }] },
    });

    expect((await api('POST', `/v2/checkout/orders/${id}/capture`)).status).toBe(201);
    const captured = await waitFor(() =>
      received.find((e) => e.body.event_type === 'PAYMENT.CAPTURE.COMPLETED' && (e.body.resource.supplementary_data as Json | undefined)?.related_ids?.order_id === id),
    );
    expect(captured.body).toMatchObject({
      resource_type: 'capture',
      resource: { status: 'COMPLETED', custom_id: customId, amount: { currency_code: 'USD', value: '6.99' }, final_capture: true },
    });
    expect(captured.headers).toMatchObject({
      'paypal-transmission-id': expect.any(String),
      'paypal-transmission-time': expect.any(String),
      'paypal-transmission-sig': expect.any(String),
      'paypal-cert-url': expect.stringContaining(sim.url),
      'paypal-auth-algo': 'SHA256withRSA',
    });

    // As PayPal requires: the event exactly as received, spliced into the request (never parsed and re-serialised).
    const verify = async (e: Received, patch: Json = {}, event: string = e.raw) => {
      const head = JSON.stringify({
        auth_algo: e.headers['paypal-auth-algo'],
        cert_url: e.headers['paypal-cert-url'],
        transmission_id: e.headers['paypal-transmission-id'],
        transmission_sig: e.headers['paypal-transmission-sig'],
        transmission_time: e.headers['paypal-transmission-time'],
        webhook_id: WEBHOOK_ID,
        ...patch,
      });
      const r = await fetch(`${sim.url}/v1/notifications/verify-webhook-signature`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: `${head.slice(0, -1)},"webhook_event":${event}}`,
      });
      return { status: r.status, body: (await r.json()) as Json };
    };

    for (const e of [approvedEvent, captured]) {
      const ok = await verify(e);
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ verification_status: 'SUCCESS' });
      // The same event parsed and serialised again is not what PayPal sent ("\/" escapes become "/"): FAILURE,
      // as on PayPal, so a receiver that re-serialises is caught here.
      expect(e.raw).toContain('\\/');
      expect((await verify(e, {}, JSON.stringify(JSON.parse(e.raw)))).body).toEqual({ verification_status: 'FAILURE' });
    }

    const tampered = JSON.parse(captured.raw) as Json;
    tampered.resource.amount.value = '0.01';
    expect((await verify(captured, {}, JSON.stringify(tampered))).body).toEqual({ verification_status: 'FAILURE' });
    expect((await verify(captured, { webhook_id: 'WH-SOMEONE-ELSE' })).body).toEqual({ verification_status: 'FAILURE' });
    expect((await verify(captured, { transmission_sig: approvedEvent.headers['paypal-transmission-sig'] })).body).toEqual({ verification_status: 'FAILURE' });
    expect((await verify(captured, { transmission_id: crypto.randomUUID() })).body).toEqual({ verification_status: 'FAILURE' });

    // The signature is PayPal's scheme, checkable offline with the key at paypal-cert-url.
    const pem = await (await fetch(String(captured.headers['paypal-cert-url']))).text();
    const message = `${captured.headers['paypal-transmission-id']}|${captured.headers['paypal-transmission-time']}|${WEBHOOK_ID}|${crc32(captured.raw)}`;
    expect(crypto.verify('sha256', Buffer.from(message), pem, Buffer.from(String(captured.headers['paypal-transmission-sig']), 'base64'))).toBe(true);
  });

  test('verify-webhook-signature requires its fields', async () => {
    const r = await api('POST', '/v1/notifications/verify-webhook-signature', { webhook_id: WEBHOOK_ID });
    expect(r.status).toBe(400);
    expect(r.body.name).toBe('INVALID_REQUEST');
    expect(r.body.details[0].issue).toBe('MISSING_REQUIRED_PARAMETER');
  });

  test('an unreachable webhook URL does not break the simulator', async () => {
    const dead = http.createServer();
    await new Promise<void>((r) => dead.listen(0, '127.0.0.1', r));
    const port = (dead.address() as AddressInfo).port;
    await new Promise<void>((r) => dead.close(() => r()));
    sim.setWebhookUrl(`http://127.0.0.1:${port}/nowhere`);
    try {
      const id = await createOrder();
      sim.approve(id);
      expect((await api('POST', `/v2/checkout/orders/${id}/capture`)).status).toBe(201);
      await new Promise((r) => setTimeout(r, 400));
      expect((await api('GET', `/v2/checkout/orders/${id}`)).body.status).toBe('COMPLETED');
    } finally {
      sim.setWebhookUrl(receiverUrl);
    }
  });
});

describe('after the capture: funding outcomes, refunds, reversals, disputes', () => {
  const eventsOf = (type: string, match: (e: Received) => boolean) => received.filter((e) => e.body.event_type === type && match(e));
  async function captured(outcome?: 'COMPLETED' | 'PENDING' | 'DECLINED') {
    const id = await createOrder();
    sim.approve(id, outcome);
    const r = await api('POST', `/v2/checkout/orders/${id}/capture`);
    expect(r.status).toBe(201);
    return { id, capture: r.body.purchase_units[0].payments.captures[0] as Json };
  }

  test('INSTRUMENT_DECLINED: 422 with a redirect to the approval page; the buyer approves again and the capture works', async () => {
    const id = await createOrder();
    sim.approve(id, 'INSTRUMENT_DECLINED');
    const r = await api('POST', `/v2/checkout/orders/${id}/capture`);
    expect(r.status).toBe(422);
    expect(r.body.details[0].issue).toBe('INSTRUMENT_DECLINED');
    expect(r.body.links).toContainEqual({ href: `${sim.url}/checkoutnow?token=${id}`, rel: 'redirect', method: 'GET' });
    expect((await fetch(`${sim.url}/checkoutnow?token=${id}`)).status).toBe(200);
    expect((await postForm('/checkoutnow/approve', { token: id, funding: 'COMPLETED' })).status).toBe(302);
    expect((await api('POST', `/v2/checkout/orders/${id}/capture`)).body.status).toBe('COMPLETED');
    expect((await postForm('/checkoutnow/approve', { token: await createOrder(), funding: 'NOPE' })).status).toBe(400);
  });

  test('DECLINED and PENDING captures, with their webhooks; a pending one completes or is denied from the dashboard', async () => {
    const declined = await captured('DECLINED');
    expect(declined.capture.status).toBe('DECLINED');
    await waitFor(() => eventsOf('PAYMENT.CAPTURE.DECLINED', (e) => e.body.resource.id === declined.capture.id)[0]);
    const pending = await captured('PENDING');
    expect(pending.capture).toMatchObject({ status: 'PENDING', status_details: { reason: 'PENDING_REVIEW' } });
    await waitFor(() => eventsOf('PAYMENT.CAPTURE.PENDING', (e) => e.body.resource.id === pending.capture.id)[0]);
    expect((await api('POST', `/v2/payments/captures/${pending.capture.id}/refund`)).body.details[0].issue).toBe('PENDING_CAPTURE');
    const done = await api('POST', `/simulator/captures/${pending.capture.id}/complete`);
    expect(done.body.status).toBe('COMPLETED');
    await waitFor(() => eventsOf('PAYMENT.CAPTURE.COMPLETED', (e) => e.body.resource.id === pending.capture.id)[0]);
    const other = await captured('PENDING');
    expect((await api('POST', `/simulator/captures/${other.capture.id}/deny`)).body.status).toBe('DECLINED');
    await waitFor(() => eventsOf('PAYMENT.CAPTURE.DENIED', (e) => e.body.resource.id === other.capture.id)[0]);
    expect((await api('POST', `/simulator/captures/${other.capture.id}/deny`)).status).toBe(422);
  });

  test('refunds: partial then the rest, with PayPal\u2019s errors and webhooks naming the capture', async () => {
    const { capture } = await captured();
    const partial = await api('POST', `/v2/payments/captures/${capture.id}/refund`, { amount: { currency_code: 'USD', value: '2.00' } }, { prefer: 'return=representation' });
    expect(partial.status).toBe(201);
    expect(partial.body).toMatchObject({ status: 'COMPLETED', amount: { currency_code: 'USD', value: '2.00' }, seller_payable_breakdown: { total_refunded_amount: { value: '2.00' } } });
    expect((await api('GET', `/v2/payments/captures/${capture.id}`)).body.status).toBe('PARTIALLY_REFUNDED');
    const tooMuch = await api('POST', `/v2/payments/captures/${capture.id}/refund`, { amount: { currency_code: 'USD', value: '5.00' } });
    expect([tooMuch.status, tooMuch.body.details[0].issue]).toEqual([422, 'REFUND_AMOUNT_EXCEEDED']);
    const eur = await api('POST', `/v2/payments/captures/${capture.id}/refund`, { amount: { currency_code: 'EUR', value: '1.00' } });
    expect([eur.status, eur.body.details[0].issue]).toEqual([422, 'REFUND_CAPTURE_CURRENCY_MISMATCH']);
    const bad = await api('POST', `/v2/payments/captures/${capture.id}/refund`, { amount: { currency_code: 'USD', value: '1.234' } });
    expect([bad.status, bad.body.details[0].issue]).toEqual([422, 'DECIMAL_PRECISION']);
    const rest = await api('POST', `/v2/payments/captures/${capture.id}/refund`, undefined, { 'paypal-request-id': 'refund-rest' });
    expect(rest.status).toBe(201);
    expect((await api('POST', `/v2/payments/captures/${capture.id}/refund`, undefined, { 'paypal-request-id': 'refund-rest' })).body.id).toBe(rest.body.id);
    expect((await api('GET', `/v2/payments/refunds/${rest.body.id}`)).body.amount).toEqual({ currency_code: 'USD', value: '4.99' });
    expect((await api('GET', `/v2/payments/captures/${capture.id}`)).body.status).toBe('REFUNDED');
    expect((await api('POST', `/v2/payments/captures/${capture.id}/refund`)).body.details[0].issue).toBe('CAPTURE_FULLY_REFUNDED');
    expect((await api('POST', '/v2/payments/captures/NOSUCHCAPTURE/refund')).status).toBe(404);
    const noAuth = await fetch(`${sim.url}/v2/payments/captures/${capture.id}/refund`, { method: 'POST' });
    expect(noAuth.status).toBe(401);
    const hooks = await waitFor(() => {
      const e = eventsOf('PAYMENT.CAPTURE.REFUNDED', (x) => (x.body.resource.links as Json[]).some((l) => l.rel === 'up' && String(l.href).endsWith(`/captures/${capture.id}`)));
      return e.length === 2 ? e : undefined;
    });
    expect(hooks.map((h) => (h.body.resource as Json).amount.value).sort()).toEqual(['2.00', '4.99']);
  });

  test('a dispute opens, and resolved for the buyer reverses the capture; the dashboard page lists it', async () => {
    const { capture } = await captured();
    const dispute = await api('POST', `/simulator/captures/${capture.id}/dispute`);
    expect(dispute.status).toBe(201);
    await waitFor(() => eventsOf('CUSTOMER.DISPUTE.CREATED', (e) => (e.body.resource as Json).disputed_transactions[0].seller_transaction_id === capture.id)[0]);
    const page = await (await fetch(`${sim.url}/simulator`)).text();
    expect(page).toContain(capture.id);
    expect(page).toContain(`action="/simulator/disputes/${dispute.body.dispute_id}/resolve"`);
    expect((await api('POST', `/simulator/disputes/${dispute.body.dispute_id}/resolve`, { favour: 'judge' })).status).toBe(400);
    const form = await postForm(`/simulator/disputes/${dispute.body.dispute_id}/resolve`, { favour: 'buyer' });
    expect([form.status, form.headers.get('location')]).toEqual([303, '/simulator']);
    const reversed = await waitFor(() => eventsOf('PAYMENT.CAPTURE.REVERSED', (e) => (e.body.resource.links as Json[]).some((l) => String(l.href).endsWith(`/captures/${capture.id}`)))[0]);
    expect(reversed.body.resource.amount).toEqual({ currency_code: 'USD', value: '6.99' });
    await waitFor(() => eventsOf('CUSTOMER.DISPUTE.RESOLVED', (e) => e.body.resource.dispute_id === dispute.body.dispute_id)[0]);
    expect((await api('POST', `/simulator/disputes/${dispute.body.dispute_id}/resolve`, { favour: 'seller' })).status).toBe(422);
  });
});

test('crc32 is the standard CRC-32', () => {
  expect(crc32('123456789')).toBe(0xcbf43926);
  expect(crc32('')).toBe(0);
});
