/**
 * Buying credits end to end on the embedded stack: our API, DynamoDB Local and the PayPal simulator (its approval
 * page, captures and signed webhooks delivered to /api/webhooks/paypal).
 */
import { randomUUID } from 'node:crypto';
import { Messages } from '../../contract/errors';
import { PAYMENT_RETURN_PATHS, WITHDRAWAL_CONSENT_TEXT } from '../../contract/payments';
import { userItems } from '../support/generation';
import {
  PACK_150,
  PACK_72,
  appPath,
  bothWebhooksHandled,
  decideAtPaypal,
  handledEvents,
  orderItem,
  paypalApi,
  scanItems,
  startPayment,
  visit,
  waitUntil,
} from '../support/payments';
import { api, createUser, mailFor, stackEnv, stackUrl, type TestUser } from '../support/users';

const credits = async (user: TestUser) => ((await (await api(user, '/api/me')).json()) as { credits: number }).credits;
const purchases = async (user: TestUser) => (await userItems(user.sub, 'LEDGER#')).filter((l) => l.reason === 'purchase');
const returnUrl = (token: string) => `/api/paypal/return?token=${encodeURIComponent(token)}&PayerID=SB7BUYERQXZ4N`;

describe('POST /api/create-paypal-payment', () => {
  it('creates a PayPal order for the pack, tied to the buyer, and stores it', async () => {
    const user = await createUser();
    const { paymentUrl, orderId } = await startPayment(user, PACK_150);
    expect(paymentUrl).toBe(`${stackEnv().PAYPAL_BASE_URL}/checkoutnow?token=${orderId}`);

    const { status, body: order } = await paypalApi('GET', `/v2/checkout/orders/${orderId}`);
    expect(status).toBe(200);
    expect(order).toMatchObject({ intent: 'CAPTURE', status: 'PAYER_ACTION_REQUIRED' });
    expect(order.purchase_units).toHaveLength(1);
    expect(order.purchase_units[0]).toMatchObject({
      reference_id: 'pack-150',
      custom_id: user.sub,
      amount: { currency_code: 'USD', value: '13.99' },
      description: expect.stringContaining('150 credits'),
    });

    expect(await orderItem(orderId)).toMatchObject({ owner: user.sub, packId: 'pack-150', credits: 150, amount: '13.99', currency: 'USD', status: 'created', returnPath: '/' });
    const page = await (await fetch(paymentUrl)).text();
    expect(page).toContain('Framewright');
    expect(page).toContain('$13.99');
  });

  it('accepts the amount as a number too', async () => {
    const user = await createUser();
    const res = await api(user, '/api/create-paypal-payment', { method: 'POST', body: JSON.stringify({ withdrawalConsent: true, amount: 25.99, credits: 300 }) });
    expect(res.status).toBe(200);
    const { orderId } = await res.json();
    expect(await orderItem(orderId)).toMatchObject({ credits: 300, amount: '25.99' });
  });

  it('refuses any amount and credits pair that is not a pack with 400, and creates no order', async () => {
    const user = await createUser();
    const bodies: unknown[] = [
      { withdrawalConsent: true, amount: '6.99', credits: 150 },
      { withdrawalConsent: true, amount: '13.99', credits: 72 },
      { withdrawalConsent: true, amount: '0.01', credits: 300 },
      { withdrawalConsent: true, amount: '6.994', credits: 72 },
      { withdrawalConsent: true, amount: 6.989, credits: 72 },
      { withdrawalConsent: true, amount: '6.99', credits: 72.5 },
      { withdrawalConsent: true, amount: '-6.99', credits: -72 },
      { withdrawalConsent: true, amount: '0', credits: 0 },
      { withdrawalConsent: true, amount: 'six', credits: 72 },
      { withdrawalConsent: true, amount: '6.99', credits: '72' },
      { withdrawalConsent: true, amount: null, credits: 72 },
      { withdrawalConsent: true, credits: 72 },
      { withdrawalConsent: true, amount: '6.99' },
      { withdrawalConsent: true },
      [],
    ];
    for (const body of bodies) {
      const res = await api(user, '/api/create-paypal-payment', { method: 'POST', body: JSON.stringify(body) });
      expect({ body, status: res.status, json: await res.json() }).toEqual({
        body,
        status: 400,
        json: expect.objectContaining({ error: Messages.invalidPack, code: 'INVALID_INPUT' }),
      });
    }
    const notJson = await api(user, '/api/create-paypal-payment', { method: 'POST', body: '{amount:', headers: { 'content-type': 'application/json' } });
    expect(notJson.status).toBe(400);
    expect(await userItems(user.sub, 'PAYMENT#')).toHaveLength(0);
    expect(await scanItems('begins_with(pk, :p) AND #owner = :o', { ':p': 'ORDER#', ':o': user.sub }, { '#owner': 'owner' })).toHaveLength(0);
  });

  it('refuses a pack without the buyer\'s withdrawal consent with 400, and creates no order', async () => {
    const user = await createUser();
    for (const consent of [undefined, false, 'true', 1, null]) {
      const body = { amount: PACK_72.amount, credits: PACK_72.credits, ...(consent === undefined ? {} : { withdrawalConsent: consent }) };
      const res = await api(user, '/api/create-paypal-payment', { method: 'POST', body: JSON.stringify(body) });
      expect({ consent, status: res.status, json: await res.json() }).toEqual({
        consent,
        status: 400,
        json: expect.objectContaining({ error: Messages.withdrawalConsentRequired, code: 'INVALID_INPUT' }),
      });
    }
    expect(await userItems(user.sub, 'PAYMENT#')).toHaveLength(0);
  });

  it('records when the buyer consented on the order, and the receipt repeats it', async () => {
    const user = await createUser();
    const { orderId, paymentUrl } = await startPayment(user, PACK_72);
    const [copy] = await userItems(user.sub, 'PAYMENT#');
    const consentAt = String(copy?.withdrawalConsentAt);
    expect(consentAt).toMatch(/^\d{4}-\d\d-\d\dT/);
    expect(await orderItem(orderId)).toMatchObject({ withdrawalConsentAt: consentAt });
    expect((await visit(await decideAtPaypal(paymentUrl, 'approve'))).status).toBe(302);
    const receipt = await waitUntil('the receipt', async () => (await mailFor(user.email)).find((m) => /receipt/i.test(m.subject)));
    expect(receipt.text).toContain(`at checkout (${consentAt}) you confirmed: "${WITHDRAWAL_CONSENT_TEXT}"`);
  });

  it('needs a signed-in user', async () => {
    const res = await api(undefined, '/api/create-paypal-payment', { method: 'POST', body: JSON.stringify({ withdrawalConsent: true, amount: '6.99', credits: 72 }) });
    expect(res.status).toBe(401);
  });
});

describe('paying', () => {
  it('credits the pack once after PayPal approval, with a purchase ledger row, and sends the browser to the app', async () => {
    const user = await createUser();
    expect(await credits(user)).toBe(10);
    const { paymentUrl, orderId } = await startPayment(user);

    const back = await decideAtPaypal(paymentUrl, 'approve');
    expect(back).toMatch(new RegExp(`^${stackUrl()}/api/paypal/return\\?token=${orderId}&PayerID=\\w+$`));
    const hop = await visit(back);
    expect(hop.status).toBe(302);
    expect(hop.location).toBe(`/?payment=success&order=${orderId}`);
    expect(await credits(user)).toBe(82);

    // PayPal's two webhooks arrive as well; they change nothing.
    const events = await bothWebhooksHandled(orderId);
    expect(events).toHaveLength(2);
    expect(await credits(user)).toBe(82);
    const rows = await purchases(user);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ delta: 72, balance: 82, ref: orderId });

    const paypalOrder = (await paypalApi('GET', `/v2/checkout/orders/${orderId}`)).body;
    expect(paypalOrder.status).toBe('COMPLETED');
    expect(paypalOrder.purchase_units[0].payments.captures).toHaveLength(1);
    expect(await orderItem(orderId)).toMatchObject({ status: 'captured', captureId: paypalOrder.purchase_units[0].payments.captures[0].id });

    // Coming back to the return URL later (a reload) shows success again and adds nothing.
    expect((await visit(back)).location).toBe(`/?payment=success&order=${orderId}`);
    expect(await credits(user)).toBe(82);
  });

  it('credits exactly once when the return URL is hit 20 times at once while the webhooks arrive', async () => {
    const user = await createUser();
    await credits(user);
    const { paymentUrl, orderId } = await startPayment(user);
    const back = await decideAtPaypal(paymentUrl, 'approve'); // also fires CHECKOUT.ORDER.APPROVED at our webhook
    const hops = await Promise.all(Array.from({ length: 20 }, () => visit(back)));
    for (const hop of hops) expect(hop).toEqual({ status: 302, location: `/?payment=success&order=${orderId}` });

    // PayPal delivering both events again (it retries) is still one credit.
    const events = await bothWebhooksHandled(orderId);
    const resent = await Promise.all([
      ...events.map((e) => paypalApi('POST', `/v1/notifications/webhooks-events/${String(e.pk).slice('WEBHOOK#paypal:'.length)}/resend`)),
      ...Array.from({ length: 5 }, () => visit(back)),
    ]);
    expect(resent.slice(0, events.length).map((r) => r.status)).toEqual(events.map(() => 202));
    await waitUntil('the redeliveries to be handled', async () => (await handledEvents(orderId)).every((e) => e.redeliveries >= 1));

    expect(await credits(user)).toBe(82);
    expect(await purchases(user)).toHaveLength(1);
    expect(await handledEvents(orderId)).toHaveLength(2);
  });

  it('credits through the webhook alone when the buyer never comes back', async () => {
    const user = await createUser();
    await credits(user);
    const { paymentUrl, orderId } = await startPayment(user, PACK_150);
    const back = await decideAtPaypal(paymentUrl, 'approve');
    await waitUntil('the webhook to credit', async () => (await credits(user)) === 160);
    await bothWebhooksHandled(orderId);
    expect((await visit(back)).location).toBe(`/?payment=success&order=${orderId}`);
    expect(await credits(user)).toBe(160);
    expect(await purchases(user)).toHaveLength(1);
  });

  it('cancel at PayPal: back to the app with payment=cancel, nothing charged or credited', async () => {
    const user = await createUser();
    await credits(user);
    const { paymentUrl, orderId } = await startPayment(user);
    const back = await decideAtPaypal(paymentUrl, 'cancel');
    expect(back).toBe(`${stackUrl()}/api/paypal/cancel?token=${orderId}`);
    expect(await visit(back)).toEqual({ status: 302, location: `/?payment=cancel&order=${orderId}` });
    expect(await credits(user)).toBe(10);
    expect(await purchases(user)).toHaveLength(0);
    expect(await orderItem(orderId)).toMatchObject({ status: 'canceled' });
    expect((await paypalApi('GET', `/v2/checkout/orders/${orderId}`)).body.status).toBe('PAYER_ACTION_REQUIRED');
  });
});

describe('coming back to the page the buyer started on (returnPath)', () => {
  const paymentRows = async (user: TestUser) => userItems(user.sub, 'PAYMENT#');

  it('keeps returnPath on the order and its payment row, and both redirects go back there', async () => {
    for (const returnPath of PAYMENT_RETURN_PATHS) {
      const user = await createUser();
      await credits(user);
      const paid = await startPayment(user, PACK_72, returnPath);
      const cancelled = await startPayment(user, PACK_150, returnPath);
      expect({ returnPath, order: (await orderItem(paid.orderId))?.returnPath }).toEqual({ returnPath, order: returnPath });
      expect({ returnPath, rows: (await paymentRows(user)).map((r) => r.returnPath) }).toEqual({ returnPath, rows: [returnPath, returnPath] });

      const hop = await visit(await decideAtPaypal(paid.paymentUrl, 'approve'));
      expect(hop).toEqual({ status: 302, location: `${returnPath}?payment=success&order=${paid.orderId}` });
      expect(appPath(hop.location)).toEqual({ path: returnPath, params: { payment: 'success', order: paid.orderId } });
      expect(await visit(await decideAtPaypal(cancelled.paymentUrl, 'cancel'))).toEqual({ status: 302, location: `${returnPath}?payment=cancel&order=${cancelled.orderId}` });
      expect(await credits(user)).toBe(82);
      await bothWebhooksHandled(paid.orderId);
    }
  });

  it("an unapproved order's error and a reload after success go back to the same page", async () => {
    const user = await createUser();
    await credits(user);
    const { paymentUrl, orderId } = await startPayment(user, PACK_72, '/video-generator/pixverse');
    expect(await visit(returnUrl(orderId))).toEqual({ status: 302, location: `/video-generator/pixverse?payment=error&order=${orderId}` });
    const back = await decideAtPaypal(paymentUrl, 'approve');
    const success = `/video-generator/pixverse?payment=success&order=${orderId}`;
    expect(await visit(back)).toEqual({ status: 302, location: success });
    expect(await visit(back)).toEqual({ status: 302, location: success });
    await bothWebhooksHandled(orderId);
    expect(await credits(user)).toBe(82);
  });

  it("without returnPath the buyer comes back to '/', as before", async () => {
    const user = await createUser();
    await credits(user);
    const { paymentUrl, orderId } = await startPayment(user);
    expect((await orderItem(orderId))?.returnPath).toBe('/');
    expect(await visit(await decideAtPaypal(paymentUrl, 'approve'))).toEqual({ status: 302, location: `/?payment=success&order=${orderId}` });
    await bothWebhooksHandled(orderId);
  });

  it('refuses any other returnPath with 400 and a clear message, and creates no order', async () => {
    const user = await createUser();
    const foreign: unknown[] = [
      'https://evil.example/phish',
      '//evil.example',
      '/\\evil.example',
      'javascript:alert(1)',
      '/login',
      '/generator/',
      '/generator?payment=success',
      '/admin#x',
      '/video-generator',
      '/video-generator/sora',
      'generator',
      '',
      ' /',
      null,
      42,
      ['/admin'],
    ];
    for (const returnPath of foreign) {
      const res = await api(user, '/api/create-paypal-payment', { method: 'POST', body: JSON.stringify({ withdrawalConsent: true, amount: '6.99', credits: 72, returnPath }) });
      expect({ returnPath, status: res.status, json: await res.json() }).toEqual({
        returnPath,
        status: 400,
        json: { error: Messages.invalidReturnPath, code: 'INVALID_INPUT', field: 'returnPath' },
      });
    }
    expect(await paymentRows(user)).toHaveLength(0);
    expect(await scanItems('begins_with(pk, :p) AND #owner = :o', { ':p': 'ORDER#', ':o': user.sub }, { '#owner': 'owner' })).toHaveLength(0);
  });

  it('a cancel for an order that is not ours, or no order, goes to the landing page', async () => {
    for (const url of ['/api/paypal/cancel', '/api/paypal/cancel?token=NOSUCHORDER000000', '/api/paypal/cancel?token=not%20an%20order']) {
      expect({ url, ...(await visit(url)) }).toEqual({ url, status: 302, location: '/?payment=cancel' });
    }
  });
});

describe('forged returns credit nothing', () => {
  it('an order that does not exist, or no order at all', async () => {
    for (const url of [
      returnUrl('NOSUCHORDER000000'),
      returnUrl('nosuch order'),
      '/api/paypal/return',
      '/api/paypal/return?token=&PayerID=X',
      `/api/paypal/return?token=${'A'.repeat(200)}`,
    ]) {
      expect({ url, ...(await visit(url)) }).toEqual({ url, status: 302, location: '/?payment=error' });
    }
  });

  it('an order the buyer never approved', async () => {
    const user = await createUser();
    await credits(user);
    const { orderId } = await startPayment(user);
    const hops = await Promise.all(Array.from({ length: 5 }, () => visit(returnUrl(orderId))));
    for (const hop of hops) expect(hop).toEqual({ status: 302, location: `/?payment=error&order=${orderId}` });
    expect(await credits(user)).toBe(10);
    expect(await orderItem(orderId)).toMatchObject({ status: 'created' });
    expect((await paypalApi('GET', `/v2/checkout/orders/${orderId}`)).body.status).toBe('PAYER_ACTION_REQUIRED');
  });

  it("another user's order: unpaid it credits nobody; paid it credits only its owner, once", async () => {
    const owner = await createUser();
    const other = await createUser();
    await Promise.all([credits(owner), credits(other)]);
    const { paymentUrl, orderId } = await startPayment(owner);

    expect(await visit(returnUrl(orderId))).toEqual({ status: 302, location: `/?payment=error&order=${orderId}` });
    expect([await credits(owner), await credits(other)]).toEqual([10, 10]);

    await decideAtPaypal(paymentUrl, 'approve');
    // The other user opens the return URL with the owner's order: the owner is credited (they paid); the redirect
    // names no user (the page asks the server, whose answer names the buyer by masked email); the other gets nothing.
    expect(await visit(returnUrl(orderId))).toEqual({ status: 302, location: `/?payment=success&order=${orderId}` });
    await bothWebhooksHandled(orderId);
    expect([await credits(owner), await credits(other)]).toEqual([82, 10]);
    expect(await purchases(other)).toHaveLength(0);
    expect(await purchases(owner)).toHaveLength(1);
  });

  it('a forged success query string on the app is just a page: nothing on the server changes', async () => {
    const user = await createUser();
    await credits(user);
    const res = await fetch(`${stackUrl()}/?payment=success&userId=${user.sub}&credits=300`);
    await res.arrayBuffer();
    expect(await credits(user)).toBe(10);
  });
});

describe('POST /api/webhooks/paypal', () => {
  const forgedEvent = (orderId: string) => ({
    id: `WH-${randomUUID()}`,
    event_version: '1.0',
    create_time: new Date().toISOString(),
    resource_type: 'checkout-order',
    event_type: 'CHECKOUT.ORDER.APPROVED',
    summary: 'An order has been approved by buyer',
    resource: { id: orderId, status: 'APPROVED', intent: 'CAPTURE' },
  });
  const post = (body: string, headers: Record<string, string>) =>
    fetch(`${stackUrl()}/api/webhooks/paypal`, { method: 'POST', body, headers: { 'content-type': 'application/json', ...headers } });

  it('refuses unsigned and badly signed events with 401 and changes nothing', async () => {
    const user = await createUser();
    await credits(user);
    const { orderId } = await startPayment(user);
    const event = forgedEvent(orderId);
    const body = JSON.stringify(event);
    const signed = {
      'paypal-transmission-id': randomUUID(),
      'paypal-transmission-time': new Date().toISOString(),
      'paypal-transmission-sig': Buffer.from('not a signature').toString('base64'),
      'paypal-cert-url': `${stackEnv().PAYPAL_BASE_URL}/v1/notifications/certs/CERT-forged`,
      'paypal-auth-algo': 'SHA256withRSA',
    };
    for (const headers of [{}, signed, { ...signed, 'paypal-transmission-sig': '' }]) {
      const res = await post(body, headers);
      expect(res.status).toBe(401);
      expect(await res.json()).toEqual({ error: Messages.invalidWebhookSignature, code: 'UNAUTHORIZED' });
    }
    const notJson = await post('{"id":', signed);
    expect(notJson.status).toBe(400);
    expect(await orderItem(orderId)).toMatchObject({ status: 'created' });
    expect(await credits(user)).toBe(10);
    expect(await scanItems('pk = :pk', { ':pk': `WEBHOOK#paypal:${event.id}` })).toHaveLength(0);
  });
});

describe('GET /api/payments', () => {
  it("shows the owner's orders and credit ledger, newest first, a page at a time, and nobody else's", async () => {
    const user = await createUser();
    const stranger = await createUser();
    await Promise.all([credits(user), credits(stranger)]);

    const paid = await startPayment(user);
    await visit(await decideAtPaypal(paid.paymentUrl, 'approve'));
    await bothWebhooksHandled(paid.orderId);
    const open = await startPayment(user, PACK_150);
    const image = await api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt: 'a receipt' }) });
    expect(image.status).toBe(200);
    const { predictionId } = await image.json();

    const res = await api(user, '/api/payments');
    expect(res.status).toBe(200);
    const all = await res.json();
    expect(all.nextCursor).toBeUndefined();
    expect(all.orders).toEqual([
      { id: open.orderId, createdAt: expect.any(String), packId: 'pack-150', credits: 150, amount: '13.99', currency: 'USD', status: 'created', statusAt: expect.any(String) },
      {
        id: paid.orderId,
        createdAt: expect.any(String),
        packId: 'pack-72',
        credits: 72,
        amount: '6.99',
        currency: 'USD',
        status: 'captured',
        statusAt: expect.any(String),
        capturedAt: expect.any(String),
        captureId: expect.stringMatching(/^[A-Z0-9]{17}$/),
      },
    ]);
    expect(all.ledger.map((l: Record<string, unknown>) => [l.reason, l.delta, l.balance, l.ref])).toEqual([
      ['image', -1, 81, predictionId],
      ['purchase', 72, 82, paid.orderId],
      ['welcome', 10, 10, 'signup'],
    ]);
    for (const l of all.ledger) expect(l).toEqual({ id: expect.any(String), createdAt: expect.any(String), reason: l.reason, delta: l.delta, balance: l.balance, ref: l.ref });

    // One of each per page: the cursor walks both lists to their ends.
    const pages = [];
    let cursor: string | undefined;
    do {
      const page = await (await api(user, `/api/payments?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`)).json();
      pages.push(page);
      cursor = page.nextCursor;
    } while (cursor && pages.length < 10);
    expect(pages.map((p) => [p.orders.length, p.ledger.length])).toEqual([[1, 1], [1, 1], [0, 1]]);
    expect(pages.flatMap((p) => p.orders)).toEqual(all.orders);
    expect(pages.flatMap((p) => p.ledger)).toEqual(all.ledger);

    const theirs = await (await api(stranger, '/api/payments')).json();
    expect(theirs.orders).toEqual([]);
    expect(theirs.ledger.map((l: Record<string, unknown>) => l.reason)).toEqual(['welcome']);
  });

  it('answers bad paging parameters with 400 and strangers with 401', async () => {
    const user = await createUser();
    for (const [query, message] of [
      ['limit=0', Messages.invalidLimit],
      ['limit=101', Messages.invalidLimit],
      ['limit=abc', Messages.invalidLimit],
      ['cursor=garbage', Messages.invalidCursor],
      [`cursor=${Buffer.from(JSON.stringify({ o: 'MEDIA#x', l: null })).toString('base64url')}`, Messages.invalidCursor],
    ] as const) {
      const res = await api(user, `/api/payments?${query}`);
      expect({ query, status: res.status, error: (await res.json()).error }).toEqual({ query, status: 400, error: message });
    }
    expect((await api(undefined, '/api/payments')).status).toBe(401);
  });
});
