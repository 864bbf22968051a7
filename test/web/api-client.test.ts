import { ALL_ROUTES } from '../../contract/routes';
import { api, ApiError, resolveUrl, RETRY_DELAYS_MS, setTokenProvider } from '../../web/src/lib/api-client';
import { API_ROUTES, routePath } from '../../web/src/lib/api-routes';
import { setConfigForTesting } from '../../web/src/lib/config';

interface FakeResponse {
  ok: boolean;
  status: number;
  text: () => Promise<string>;
}

function respond(status: number, text = ''): FakeResponse {
  return { ok: status >= 200 && status < 300, status, text: async () => text };
}

const fetchMock = jest.fn<Promise<FakeResponse>, [string, RequestInit]>();

beforeEach(() => {
  fetchMock.mockReset();
  global.fetch = fetchMock as unknown as typeof fetch;
  setConfigForTesting({
    region: 'us-east-1',
    userPoolId: 'us-east-1_test',
    userPoolClientId: 'client',
    apiBaseUrl: 'https://app.example.test',
  });
  setTokenProvider(async () => undefined);
});

async function errorOf(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ApiError);
    return err as ApiError;
  }
  throw new Error('expected the request to fail');
}

describe('a call that charges (Idempotency-Key)', () => {
  const keyOf = (i: number) => new Headers(fetchMock.mock.calls[i]![1].headers).get('idempotency-key');
  afterEach(() => jest.useRealTimers());

  it('sends one key per call, and the same key on each retry of a 5xx, a network error or a call still in progress', async () => {
    jest.useFakeTimers();
    fetchMock
      .mockResolvedValueOnce(respond(503, JSON.stringify({ message: 'Service Unavailable' })))
      .mockRejectedValueOnce(new TypeError('Failed to fetch'))
      .mockResolvedValueOnce(respond(409, JSON.stringify({ error: 'still running', code: 'IDEMPOTENCY_IN_PROGRESS' })))
      .mockResolvedValueOnce(respond(200, JSON.stringify({ predictionId: 'j1', credits: 9 })));
    const answer = api.generateImage({ body: { prompt: 'a cat' } });
    await jest.runAllTimersAsync();
    expect(await answer).toEqual({ predictionId: 'j1', credits: 9 });
    expect(fetchMock).toHaveBeenCalledTimes(4);
    expect(keyOf(0)).toMatch(/^[0-9a-f-]{36}$/);
    expect([1, 2, 3].map(keyOf)).toEqual([keyOf(0), keyOf(0), keyOf(0)]);

    fetchMock.mockResolvedValueOnce(respond(200, JSON.stringify({ predictionId: 'j2', credits: 8 })));
    await api.generateImage({ body: { prompt: 'a cat' } });
    expect(keyOf(4)).not.toBe(keyOf(0));
  });

  it('gives up after its bounded retries, and never retries a 4xx answer or a call without a key', async () => {
    jest.useFakeTimers();
    fetchMock.mockResolvedValue(respond(500, JSON.stringify({ error: 'Something went wrong on our side. Please try again.' })));
    const failed = errorOf(api.createPaypalPayment({ body: { withdrawalConsent: true, amount: '6.99', credits: 72 } }));
    await jest.runAllTimersAsync();
    expect((await failed).status).toBe(500);
    expect(fetchMock).toHaveBeenCalledTimes(RETRY_DELAYS_MS.length + 1);

    fetchMock.mockReset();
    fetchMock.mockResolvedValue(respond(402, JSON.stringify({ error: 'Not enough credits. Required: 1', code: 'NOT_ENOUGH_CREDITS' })));
    expect((await errorOf(api.generateVideo({ body: { prompt: 'a cat', model: 'wan-2.1' } as never }))).status).toBe(402);
    expect(fetchMock).toHaveBeenCalledTimes(1);

    fetchMock.mockReset();
    fetchMock.mockResolvedValue(respond(503, ''));
    expect((await errorOf(api.me())).status).toBe(503);
    expect(fetchMock).toHaveBeenCalledTimes(1);
    expect(keyOf(0)).toBeNull();
  });
});

describe('api client', () => {
  it('turns an error body into its message and code', async () => {
    fetchMock.mockResolvedValue(respond(402, JSON.stringify({ error: 'Not enough credits. Required: 1', code: 'NOT_ENOUGH_CREDITS' })));
    const err = await errorOf(api.generateImage({ body: { prompt: 'a cat' } }));
    expect(err.status).toBe(402);
    expect(err.code).toBe('NOT_ENOUGH_CREDITS');
    expect(err.message).toBe('Not enough credits. Required: 1');
  });

  it("uses body.error 'X' as the message", async () => {
    fetchMock.mockResolvedValue(respond(400, JSON.stringify({ error: 'X' })));
    const err = await errorOf(api.me());
    expect(err.message).toBe('X');
    expect(err.code).toBeUndefined();
  });

  it('uses the response text of a non-JSON error', async () => {
    fetchMock.mockResolvedValue(respond(500, 'Internal Server Error'));
    const err = await errorOf(api.me());
    expect(err.status).toBe(500);
    expect(err.message).toBe('Internal Server Error');
  });

  it("falls back to 'HTTP error: {status}' for an empty error body", async () => {
    fetchMock.mockResolvedValue(respond(502, ''));
    const err = await errorOf(api.deleteMedia({ params: { id: 'abc' } }));
    expect(err.message).toBe('HTTP error: 502');
  });

  it('attaches the bearer token from the provider and sends JSON', async () => {
    setTokenProvider(async () => 'token-123');
    fetchMock.mockResolvedValue(respond(200, JSON.stringify({ predictionId: 'p1', credits: 9 })));
    const result = await api.generateImage({ body: { prompt: 'a cat' } });

    expect(result).toEqual({ predictionId: 'p1', credits: 9 });
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('https://app.example.test/api/generate-image');
    expect(init.method).toBe('POST');
    const headers = init.headers as Record<string, string>;
    expect(headers.authorization).toBe('Bearer token-123');
    expect(headers['content-type']).toBe('application/json');
    expect(init.body).toBe(JSON.stringify({ prompt: 'a cat' }));
  });

  it('sends no Authorization header when signed out', async () => {
    fetchMock.mockResolvedValue(respond(200, '{"status":"ok"}'));
    await api.health();
    const headers = fetchMock.mock.calls[0]![1].headers as Record<string, string>;
    expect(headers).not.toHaveProperty('authorization');
  });

  it('returns undefined for an empty success body and validates with a schema when given', async () => {
    fetchMock.mockResolvedValueOnce(respond(204, ''));
    await expect(api.deleteMedia({ params: { id: 'abc' } })).resolves.toBeUndefined();

    fetchMock.mockResolvedValueOnce(respond(200, '{"credits":"many"}'));
    const schema = {
      parse(data: unknown) {
        if (typeof (data as { credits?: unknown }).credits !== 'number') throw new Error('bad response');
        return data;
      },
    };
    await expect(api.me({ schema })).rejects.toThrow('bad response');
  });

  it('reports a network failure as ApiError status 0', async () => {
    fetchMock.mockRejectedValue(new TypeError('Failed to fetch'));
    const err = await errorOf(api.me());
    expect(err.status).toBe(0);
    expect(err.code).toBe('NETWORK_ERROR');
  });

  it('joins the base URL and contract paths without doubling /api', () => {
    expect(resolveUrl('', '/api/me')).toBe('/api/me');
    expect(resolveUrl('https://x.test/', '/api/me')).toBe('https://x.test/api/me');
    expect(resolveUrl('/api', '/api/me')).toBe('/api/me');
    expect(resolveUrl('https://x.test/prod/api/', '/api/check-status/p1')).toBe('https://x.test/prod/api/check-status/p1');
  });
});

describe('the typed route client', () => {
  it("names each route the SPA calls with the contract's method and path", () => {
    for (const [id, { method, path }] of Object.entries(API_ROUTES)) {
      expect(ALL_ROUTES.find((r) => r.id === id)).toMatchObject({ method, path });
    }
  });

  it('sends an Idempotency-Key exactly on the routes whose contract takes one', () => {
    for (const [id, route] of Object.entries(API_ROUTES)) {
      expect('idempotencyKey' in route).toBe(ALL_ROUTES.find((r) => r.id === id)?.idempotencyKey === true);
    }
  });

  it('fills path parameters (encoded) and the query string, in order, leaving out empty values', async () => {
    fetchMock.mockResolvedValue(respond(200, '{}'));
    await api.checkStatus({ params: { predictionId: 'a/b c' } });
    await api.listMedia({ query: { limit: 24, type: undefined, cursor: 'next page' } });
    await api.listPayments({ query: { limit: 20, cursor: '' } });
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      'https://app.example.test/api/check-status/a%2Fb%20c',
      'https://app.example.test/api/media?limit=24&cursor=next+page',
      'https://app.example.test/api/payments?limit=20',
    ]);
    expect(fetchMock.mock.calls.map(([, init]) => init.method)).toEqual(['GET', 'GET', 'GET']);
  });

  it('passes the abort signal to fetch', async () => {
    fetchMock.mockResolvedValue(respond(200, '{"orders":[],"ledger":[]}'));
    const controller = new AbortController();
    await api.listPayments({ query: { limit: 20 }, signal: controller.signal });
    expect(fetchMock.mock.calls[0]![1].signal).toBe(controller.signal);
  });

  it('rejects a call that misses a path parameter without sending it', async () => {
    expect(routePath('/api/media')).toBe('/api/media');
    await expect(api.deleteMedia({ params: {} as { id: string } })).rejects.toThrow("Missing path parameter 'id' for /api/media/{id}");
    expect(fetchMock).not.toHaveBeenCalled();
  });

  it('types each call from the contract', () => {
    // Compile-time checks only: each call below is never made.
    const typed = () => {
      // @ts-expect-error generateImage needs a body
      void api.generateImage();
      // @ts-expect-error the body is the contract's GenerateImageRequest
      void api.generateImage({ body: { text: 'a cat' } });
      // @ts-expect-error checkStatus names its prediction in params
      void api.checkStatus({ params: { id: 'p1' } });
      // @ts-expect-error listMedia's type is image or video
      void api.listMedia({ query: { type: 'audio' } });
      // @ts-expect-error me takes no body
      void api.me({ body: {} });
      const status: Promise<'starting' | 'processing' | 'succeeded' | 'failed' | 'canceled'> = api.checkStatus({ params: { predictionId: 'p1' } }).then((r) => r.status);
      const deleted: Promise<void> = api.deleteMedia({ params: { id: 'm1' } });
      return [status, deleted];
    };
    expect(typeof typed).toBe('function');
  });
});
