import { handler as liveConnect } from '../../lambdas/handlers/live-connect';
import { ORIGIN_HEADER } from '../../lambdas/handlers/origin';
import { requestFrom } from '../support/from-address';
import { originHeader } from '../support/secrets';
import { api, createUser, stackEnv, stackUrl } from '../support/users';

/**
 * The API answers only requests that came through CloudFront: the embedded stack's API_ENDPOINT_URL is the gateway with
 * nothing in front (API Gateway's execute-api URL), its single origin plays CloudFront and adds the origin header.
 */
describe('the origin check', () => {
  const direct = () => stackEnv().API_ENDPOINT_URL!;

  it('refuses with 403 every route called on the API endpoint itself, public, signed-in or webhook', async () => {
    const user = await createUser();
    const calls: Array<[string, string, Record<string, string>?]> = [
      ['GET', '/api/health'],
      ['POST', '/api/send-contact', { 'content-type': 'application/json' }],
      ['POST', '/api/webhooks/replicate?job=x'],
      ['GET', '/api/me', { authorization: `Bearer ${user.idToken}` }],
    ];
    for (const [method, path, headers] of calls) {
      const res = await requestFrom('127.0.0.1', `${direct()}${path}`, { method, headers, body: method === 'POST' ? '{}' : undefined });
      expect([path, res.status, await res.json()]).toEqual([path, 403, { message: 'Forbidden' }]);
    }
    // The same calls through the single origin are served.
    expect((await fetch(`${stackUrl()}/api/health`)).status).toBe(200);
    expect((await api(user, '/api/me')).status).toBe(200);
  });

  it('refuses a guessed or empty origin header', async () => {
    const right = await originHeader();
    for (const value of ['', 'guess', `${right}x`, right.slice(1)]) {
      const res = await requestFrom('127.0.0.1', `${direct()}/api/health`, { headers: { [ORIGIN_HEADER]: value } });
      expect(res.status).toBe(403);
    }
  });

  it('passes the right header, as CloudFront sends it', async () => {
    const res = await requestFrom('127.0.0.1', `${direct()}/api/health`, { headers: { [ORIGIN_HEADER]: await originHeader() } });
    expect(res.status).toBe(200);
  });

  it("refuses the push channel's handshake that did not come through CloudFront, before reading its token", async () => {
    // The WebSocket API's own endpoint is public too: $connect checks the header first (the single origin adds it to
    // /live, as CloudFront does; test/journeys/live.test.ts connects that way).
    const user = await createUser();
    const right = await originHeader();
    for (const sent of [{}, { 'X-Origin-Verify': 'guess' }, { [ORIGIN_HEADER]: right.slice(1) }, { [ORIGIN_HEADER]: '' }]) {
      const event = {
        requestContext: { connectionId: 'Abc123=', routeKey: '$connect', eventType: 'CONNECT' },
        headers: { 'Sec-WebSocket-Protocol': `framewright.v1, ${user.idToken}`, ...sent },
      };
      expect(await liveConnect(event)).toEqual({ statusCode: 403 });
    }
  });
});

describe('the single origin plays CloudFront at its limits', () => {
  it('answers 414 with a message for a URL over 8,192 bytes, long or very long, and serves one just under', async () => {
    for (const length of [9_000, 40_000]) {
      const res = await fetch(`${stackUrl()}/s/${'a'.repeat(length)}`, { method: 'GET' });
      expect([length, res.status, await res.json()]).toEqual([length, 414, { message: 'Request-URI Too Large' }]);
    }
    const posted = await fetch(`${stackUrl()}/api/${'b'.repeat(40_000)}`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ p: 'x'.repeat(40_000) }) });
    expect(posted.status).toBe(414);
    const under = await fetch(`${stackUrl()}/api/health?pad=${'c'.repeat(8_000)}`);
    expect(under.status).toBe(200);
  });
});
