/** The route table: each method and path to its endpoint (api.ts), buyer page (checkout.ts) or dashboard action. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, TOO_LARGE } from '../shared/http';
import { routeTable, type Route } from '../shared/route-table';
import type { Api } from './api';
import type { Checkout } from './checkout';
import type { Dashboard } from './dashboard';
import { apiError, PaypalError, sendPaypalJson } from './errors';
import type { Outage } from './outage';

/** Request bodies over 1 MB are refused with 413. */
const MAX_BODY = 1_000_000;

/** What a route's handler gets: the request with its whole body, and its path and query parameters. */
export interface Call {
  req: IncomingMessage;
  res: ServerResponse;
  raw: Buffer;
  params: Record<string, string>;
  query: URLSearchParams;
}

export type Handler = (c: Call) => void;

const CAPTURE_ACTIONS = ['refund', 'reverse', 'dispute', 'complete', 'deny'] as const;

function routes(api: Api, checkout: Checkout, dashboard: Dashboard, more: readonly Route<Handler>[]) {
  return routeTable<Handler>([
    ...more,
    { method: 'POST', path: '/v1/oauth2/token', handle: (c) => api.tokenEndpoint(c.req, c.res, c.raw) },
    { method: 'POST', path: '/v2/checkout/orders', handle: (c) => api.createOrder(c.req, c.res, c.raw) },
    { method: 'GET', path: '/v2/checkout/orders/{id}', handle: (c) => api.getOrder(c.req, c.res, c.params.id!) },
    { method: 'POST', path: '/v2/checkout/orders/{id}/capture', handle: (c) => api.capture(c.req, c.res, c.params.id!, c.raw) },
    { method: 'GET', path: '/v2/payments/captures/{id}', handle: (c) => api.getCapture(c.req, c.res, c.params.id!) },
    { method: 'POST', path: '/v2/payments/captures/{id}/refund', handle: (c) => api.refund(c.req, c.res, c.params.id!, c.raw) },
    { method: 'GET', path: '/v2/payments/refunds/{id}', handle: (c) => api.getRefund(c.req, c.res, c.params.id!) },
    { method: 'GET', path: '/v1/customer/disputes/{id}', handle: (c) => api.getDispute(c.req, c.res, c.params.id!) },
    { method: 'POST', path: '/v1/notifications/verify-webhook-signature', handle: (c) => api.verifySignature(c.req, c.res, c.raw) },
    { method: 'GET', path: '/v1/notifications/webhooks-events/{id}', handle: (c) => api.getEvent(c.req, c.res, c.params.id!) },
    { method: 'POST', path: '/v1/notifications/webhooks-events/{id}/resend', handle: (c) => api.resendEvent(c.req, c.res, c.params.id!) },
    { method: 'GET', path: '/v1/notifications/certs/{id}', handle: (c) => api.cert(c.res, c.params.id!) },
    { method: 'GET', path: '/checkoutnow', handle: (c) => checkout.checkoutPage(c.res, c.query.get('token')) },
    { method: 'POST', path: '/checkoutnow/approve', handle: (c) => checkout.checkoutAction(c.res, 'approve', c.raw, c.query) },
    { method: 'POST', path: '/checkoutnow/cancel', handle: (c) => checkout.checkoutAction(c.res, 'cancel', c.raw, c.query) },
    { method: 'GET', path: '/simulator', handle: (c) => dashboard.page(c.res) },
    ...CAPTURE_ACTIONS.map((action) => ({
      method: 'POST',
      path: `/simulator/captures/{id}/${action}`,
      handle: (c: Call) => dashboard.captureAction(c.req, c.res, c.params.id!, action, c.raw),
    })),
    { method: 'POST', path: '/simulator/disputes/{id}/resolve', handle: (c) => dashboard.resolveDispute(c.req, c.res, c.params.id!, c.raw) },
    { method: 'POST', path: '/simulator/outage', handle: (c) => dashboard.outage(c.req, c.res, c.raw) },
    { method: 'POST', path: '/simulator/webhooks/lost', handle: (c) => dashboard.lost(c.req, c.res, c.raw) },
  ]);
}

/** The request listener: PayPal's errors for what no route takes (404, 405, 413). */
export function createRouter(
  api: Api,
  checkout: Checkout,
  dashboard: Dashboard,
  outage: Outage,
  log: (line: string) => void,
  /** Subscriptions v1, its buyer page and its dashboard (subscriptions.ts). */
  subscriptions: readonly Route<Handler>[] = [],
) {
  const route = routes(api, checkout, dashboard, subscriptions);

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req, MAX_BODY);
    // Everything below is synchronous: a request's check and its state change never interleave with another's.
    const u = new URL(req.url ?? '/', 'http://paypal-sim.invalid');
    const path = u.pathname.replace(/\/+$/, '') || '/';
    // PayPal unreachable: the caller sees its connection dropped, not an answer.
    if (outage.blocksPath(path)) return void req.socket.destroy();
    try {
      if (raw === TOO_LARGE) throw apiError(413, 'INVALID_REQUEST', undefined, 'Request body too large.');
      const found = route(req.method ?? 'GET', path);
      if (found === 'wrong-method') {
        throw apiError(405, 'METHOD_NOT_SUPPORTED', undefined, 'The server does not implement the requested HTTP method.');
      }
      if (found === 'no-such-path') {
        throw apiError(404, 'RESOURCE_NOT_FOUND', [
          { field: 'path', value: path, location: 'path', issue: 'INVALID_RESOURCE_ID', description: 'The simulator has no such endpoint.' },
        ]);
      }
      found.handle({ req, res, raw, params: found.params, query: u.searchParams });
    } catch (err) {
      if (err instanceof PaypalError) return sendPaypalJson(res, err.status, err.body);
      throw err;
    }
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((err: unknown) => {
      log(`paypal-sim: internal error: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      if (res.headersSent) return void res.destroy();
      sendPaypalJson(res, 500, apiError(500, 'INTERNAL_SERVER_ERROR', undefined, 'An internal server error has occurred.').body);
    });
  };
}
