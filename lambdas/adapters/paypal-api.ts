/**
 * PayPal's REST API on fetch, shared by the payments client and the webhooks' verifier (PayPal's server SDK has no
 * base-URL option): OAuth2 client credentials with the token cached until shortly before it expires, one retry of a
 * network failure, 5xx or expired token, and PayPal's refusals as typed errors. PAYPAL_BASE_URL picks the simulator,
 * sandbox or live.
 */
import { FundingDeclined, OrderAlreadyCaptured, OrderNotApproved, PaymentProviderUnavailable, PaymentRefused } from '../ports/payments';

export const PAYPAL_SANDBOX_URL = 'https://api-m.sandbox.paypal.com';

export interface PaypalApiOptions {
  baseUrl: string;
  clientId: string;
  clientSecret: string;
  fetchImpl?: typeof fetch;
  /** Per request; default 8 s (the routes that call PayPal have 25 s). */
  timeoutMs?: number;
  now?: () => number;
}

/** A token is renewed this long before PayPal says it expires. */
const TOKEN_MARGIN_MS = 60_000;

export type Json = Record<string, unknown>;
export const isRecord = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
export const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

export interface PaypalApi {
  /**
   * An authenticated call. A 401 drops the cached token and tries once more with a new one; a network failure or
   * 5xx is retried once too, which is safe because every call is a GET or carries a PayPal-Request-Id.
   */
  call(method: 'GET' | 'POST', path: string, init?: { body?: unknown; rawBody?: string; requestId?: string }): Promise<Json>;
}

export function paypalApi(opts: PaypalApiOptions): PaypalApi {
  const base = opts.baseUrl.replace(/\/+$/, '');
  const fetchImpl = opts.fetchImpl ?? globalThis.fetch.bind(globalThis);
  const timeoutMs = opts.timeoutMs ?? 8_000;
  const now = opts.now ?? Date.now;
  let token: { value: string; expiresAt: number } | undefined;
  let pendingToken: Promise<string> | undefined;

  async function send(url: string, init: RequestInit): Promise<Response> {
    try {
      return await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    } catch (err) {
      throw new PaymentProviderUnavailable(`PayPal ${init.method ?? 'GET'} ${url} failed: ${(err as Error).message}`);
    }
  }

  /** One token request at a time; callers share it until it nears expiry. */
  function accessToken(): Promise<string> {
    if (token && now() < token.expiresAt - TOKEN_MARGIN_MS) return Promise.resolve(token.value);
    pendingToken ??= (async () => {
      const res = await send(`${base}/v1/oauth2/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: 'grant_type=client_credentials',
      });
      const body = (await res.json().catch(() => ({}))) as Json;
      if (!res.ok || typeof body.access_token !== 'string') {
        // Wrong credentials are a configuration error, not the buyer's: report them as PayPal being unavailable.
        throw new PaymentProviderUnavailable(`PayPal token request failed: HTTP ${res.status} ${str(body.error) ?? ''}`.trim());
      }
      const ttl = typeof body.expires_in === 'number' ? body.expires_in * 1000 : 0;
      token = { value: body.access_token, expiresAt: now() + ttl };
      return body.access_token;
    })().finally(() => {
      pendingToken = undefined;
    });
    return pendingToken;
  }

  async function call(method: 'GET' | 'POST', path: string, init: { body?: unknown; rawBody?: string; requestId?: string } = {}): Promise<Json> {
    for (let attempt = 0; ; attempt++) {
      const headers: Record<string, string> = {
        authorization: `Bearer ${await accessToken()}`,
        accept: 'application/json',
        prefer: 'return=representation',
      };
      if (method === 'POST') headers['content-type'] = 'application/json';
      if (init.requestId) headers['paypal-request-id'] = init.requestId;
      let res: Response;
      try {
        res = await send(`${base}${path}`, {
          method,
          headers,
          ...(init.rawBody !== undefined ? { body: init.rawBody } : init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        });
      } catch (err) {
        if (attempt === 0) continue;
        throw err;
      }
      const text = await res.text();
      let body: unknown;
      try {
        body = text ? JSON.parse(text) : {};
      } catch {
        body = {};
      }
      if (res.ok) return isRecord(body) ? body : {};
      if (res.status === 401 && attempt === 0) {
        token = undefined;
        continue;
      }
      if (res.status >= 500 || res.status === 429) {
        if (attempt === 0) continue;
        throw new PaymentProviderUnavailable(`PayPal ${method} ${path}: HTTP ${res.status}`);
      }
      throw refusal(res.status, body, `${method} ${path}`);
    }
  }

  return { call };
}

/** Capture issues after which PayPal says to send the buyer back to choose another funding source. */
const FUNDING_ISSUES = new Set(['INSTRUMENT_DECLINED', 'PAYER_ACTION_REQUIRED', 'REDIRECT_PAYER_FOR_ALTERNATE_FUNDING']);

function refusal(status: number, body: unknown, what: string): PaymentRefused {
  const b = isRecord(body) ? body : {};
  const name = str(b.name) ?? `HTTP_${status}`;
  const details = Array.isArray(b.details) ? b.details.filter(isRecord) : [];
  const issue = str(details[0]?.issue);
  const message = `PayPal ${what}: ${name}${issue ? ` ${issue}` : ''}${str(b.debug_id) ? ` (debug_id ${str(b.debug_id)})` : ''}`;
  if (issue === 'ORDER_ALREADY_CAPTURED') return new OrderAlreadyCaptured(message, status, name, issue);
  if (issue === 'ORDER_NOT_APPROVED') return new OrderNotApproved(message, status, name, issue);
  if (issue && FUNDING_ISSUES.has(issue)) {
    const e = new FundingDeclined(message, status, name, issue);
    const links = Array.isArray(b.links) ? b.links.filter(isRecord) : [];
    const redirect = str(links.find((l) => l.rel === 'redirect' || l.rel === 'payer-action' || l.rel === 'approve')?.href);
    if (redirect && /^https?:\/\//.test(redirect)) e.redirectUrl = redirect;
    return e;
  }
  return new PaymentRefused(message, status, name, issue);
}
