/**
 * The bad inputs a fuzzer once turned into 5xx (issue "Every job ends and no credit is lost"), and the rules that now
 * refuse them with a 4xx and a message: path ids checked by the contract, malformed percent-encoding refused by the
 * gateway, JSON bodies bounded in size and depth, JSON only where a route has a request schema, no lone surrogates.
 */
import { Messages } from '../../contract/errors';
import { MAX_JSON_DEPTH } from '../../lambdas/handlers/http';
import { send } from '../support/fuzz';
import { postWebhook, signedWebhook, userItems } from '../support/generation';
import { scanItems } from '../support/payments';
import { api, createUser, type TestUser } from '../support/users';

const longId = `${Date.now()}-${'a'.repeat(2_045)}`;
const invalidId = (field: string) => ({ error: Messages.invalidPathId, code: 'INVALID_INPUT', field });

/** The caller's balance and ledger, to show a refused request changed neither. */
async function money(user: TestUser) {
  const me = await (await api(user, '/api/me')).json();
  return { credits: me.credits as number, ledger: (await userItems(user.sub, 'LEDGER#')).length };
}

let user: TestUser;
beforeAll(async () => {
  user = await createUser();
  await api(user, '/api/me');
});

describe('path ids', () => {
  it('a check-status or media id of 2,045+ characters is a 400 naming the field, not a DynamoDB error', async () => {
    const before = await money(user);
    const status = await api(user, `/api/check-status/${longId}`);
    expect(status.status).toBe(400);
    expect(await status.json()).toEqual(invalidId('predictionId'));
    const del = await api(user, `/api/media/${longId}`, { method: 'DELETE' });
    expect(del.status).toBe(400);
    expect(await del.json()).toEqual(invalidId('id'));
    expect(await money(user)).toEqual(before);
  });

  it('ids with controls, dots or other characters no id of ours has are refused the same way', async () => {
    for (const id of ['a%00b', 'a..b', 'a.b', '%C3%A9t%C3%A9', 'a%20b']) {
      const res = await api(user, `/api/check-status/${id}`);
      expect({ id, status: res.status, body: await res.json() }).toEqual({ id, status: 400, body: invalidId('predictionId') });
    }
  });

  it('a well-formed id that names nothing is still a 404', async () => {
    const res = await api(user, `/api/check-status/${Date.now()}-0123456789ab`);
    expect(res.status).toBe(404);
  });
});

describe('malformed percent-encoding in a path', () => {
  it.each(['/api/check-status/%E0%A4', '/api/media/%', '/api/media/abc%ZZ', '/api/me%C3', '/api/check-status/%ED%A0%80'])('%s: 400 from the gateway', async (path) => {
    const method = path.startsWith('/api/media') ? 'DELETE' : 'GET';
    const res = await send({ method, path, headers: { authorization: `Bearer ${user.idToken}` } });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ message: 'Bad Request' });
  });

  it("a URL longer than CloudFront's 8,192 bytes gets 414, and headers past what the server reads 431, each with a JSON message", async () => {
    const long = await send({ method: 'GET', path: `/api/check-status/${'a'.repeat(20_000)}`, headers: {} });
    expect([long.status, JSON.parse(long.text)]).toEqual([414, { message: 'Request-URI Too Large' }]);
    const huge = await send({ method: 'GET', path: '/api/health', headers: { 'x-padding': 'p'.repeat(70_000) } });
    expect([huge.status, JSON.parse(huge.text)]).toEqual([431, { message: 'Request Header Fields Too Large' }]);
  });
});

describe('JSON bodies', () => {
  const deep = (depth: number) => `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`;
  const paypalHeaders = {
    'content-type': 'application/json',
    'paypal-transmission-id': 'fuzz',
    'paypal-transmission-time': new Date().toISOString(),
    'paypal-transmission-sig': 'c2ln',
    'paypal-cert-url': 'https://api.paypal.com/v1/notifications/certs/CERT-1',
    'paypal-auth-algo': 'SHA256withRSA',
  };

  it('JSON nested 5,000 deep on the PayPal webhook is a 400 before anything is verified or stored', async () => {
    const body = `{"id":"WH-DEEP-${Date.now()}","event_type":"CHECKOUT.ORDER.APPROVED","resource":${deep(5_000)}}`;
    const res = await send({ method: 'POST', path: '/api/webhooks/paypal', headers: paypalHeaders, body: Buffer.from(body) });
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual({ error: Messages.jsonTooDeep(MAX_JSON_DEPTH), code: 'INVALID_INPUT' });
    expect(await scanItems('begins_with(pk, :p)', { ':p': 'WEBHOOK#paypal:WH-DEEP-' })).toEqual([]);
  });

  it(`${MAX_JSON_DEPTH} levels are fine; one more is not`, async () => {
    const at = (depth: number) => api(user, '/api/uploads', { method: 'POST', body: `{"contentType":"image/png","size":10,"x":${deep(depth - 1)}}` });
    expect((await at(MAX_JSON_DEPTH)).status).toBe(200);
    const over = await at(MAX_JSON_DEPTH + 1);
    expect(over.status).toBe(400);
    expect((await over.json()).error).toBe(Messages.jsonTooDeep(MAX_JSON_DEPTH));
  });

  it('brackets inside strings do not count as nesting', async () => {
    const res = await api(user, '/api/uploads', { method: 'POST', body: JSON.stringify({ contentType: 'image/png', size: 10, x: '[{'.repeat(500) + '\\"' }) });
    expect(res.status).toBe(200);
  });

  it('a JSON body over 1 MB is a 413 with a message, and charges nothing', async () => {
    const before = await money(user);
    const res = await api(user, '/api/generate-image', { method: 'POST', body: JSON.stringify({ prompt: 'a fox', pad: 'x'.repeat(1_100_000) }) });
    expect(res.status).toBe(413);
    expect(await res.json()).toEqual({ error: Messages.payloadTooLarge, code: 'PAYLOAD_TOO_LARGE' });
    expect(await money(user)).toEqual(before);
  });

  it('a route with a request schema takes JSON only: another content type is a 415, and charges nothing', async () => {
    const before = await money(user);
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      const res = await api(user, '/api/generate-image', { method: 'POST', body: '{"prompt":"a fox"}', headers: { 'content-type': type } });
      expect({ type, status: res.status, body: await res.json() }).toEqual({ type, status: 415, body: { error: Messages.jsonOnly, code: 'UNSUPPORTED_MEDIA_TYPE' } });
    }
    expect(await money(user)).toEqual(before);
  });

  it('a lone surrogate in a string or a key is a 400; a real pair (an emoji) is text like any other', async () => {
    const before = await money(user);
    for (const body of ['{"prompt":"a fox \\ud800"}', '{"prompt":"a fox \\udc00 x"}', '{"prompt":"a fox","\\ud83c":1}']) {
      const res = await api(user, '/api/generate-image', { method: 'POST', body });
      expect({ body, status: res.status, answer: await res.json() }).toEqual({ body, status: 400, answer: { error: Messages.invalidUnicode, code: 'INVALID_INPUT' } });
    }
    expect(await money(user)).toEqual(before);
    const emoji = await api(user, '/api/generate-image', { method: 'POST', body: '{"prompt":"a fox \\ud83c\\udfac"}' });
    expect(emoji.status).toBe(200);
    expect(await money(user)).toEqual({ credits: before.credits - 1, ledger: before.ledger + 1 });
  });

  it('webhooks are still verified over the body exactly as sent (spacing, key order, escapes)', async () => {
    const body = ' { "status" : "processing",\n  "id":"p-\\u0041" } ';
    const res = await postWebhook(`${Date.now()}-0123456789ab`, body, signedWebhook(body));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ ok: true });
  });
});
