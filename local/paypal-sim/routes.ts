/** Routing: each path and method to its endpoint (api.ts) or buyer page (checkout.ts); PayPal's errors for the rest. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { readBody, TOO_LARGE } from '../shared/http';
import type { Api } from './api';
import type { Checkout } from './checkout';
import type { Dashboard } from './dashboard';
import { apiError, PaypalError } from './errors';
import { MAX_BODY, sendJson } from './http';
import type { Outage } from './outage';

/** The request listener. */
export function createRouter(
  api: Api,
  checkout: Checkout,
  dashboard: Dashboard,
  outage: Outage,
  log: (line: string) => void,
  /** Subscriptions v1 and its pages (subscriptions.ts): true when it served the request. */
  subscriptions?: (req: IncomingMessage, res: ServerResponse, method: string, path: string, query: URLSearchParams, raw: Buffer) => boolean,
) {
  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const raw = await readBody(req, MAX_BODY);
    // Everything below is synchronous: a request's check and its state change never interleave with another's.
    const u = new URL(req.url ?? '/', 'http://paypal-sim.invalid');
    const path = u.pathname.replace(/\/+$/, '') || '/';
    const method = req.method ?? 'GET';
    // PayPal unreachable: the caller sees its connection dropped, not an answer.
    if (outage.blocksPath(path)) return void req.socket.destroy();
    try {
      if (raw === TOO_LARGE) throw apiError(413, 'INVALID_REQUEST', undefined, 'Request body too large.');
      let m: RegExpExecArray | null = null;
      const route = (re: RegExp) => (m = re.exec(path)) !== null;
      const seg = (i: number) => decodeURIComponent(m?.[i] ?? '');
      const allow = (...methods: string[]) => {
        if (!methods.includes(method)) throw apiError(405, 'METHOD_NOT_SUPPORTED', undefined, 'The server does not implement the requested HTTP method.');
      };
      if (route(/^\/v1\/oauth2\/token$/)) {
        allow('POST');
        return api.tokenEndpoint(req, res, raw);
      }
      if (route(/^\/v2\/checkout\/orders$/)) {
        allow('POST');
        return api.createOrder(req, res, raw);
      }
      if (route(/^\/v2\/checkout\/orders\/([^/]+)$/)) {
        allow('GET');
        return api.getOrder(req, res, seg(1));
      }
      if (route(/^\/v2\/checkout\/orders\/([^/]+)\/capture$/)) {
        allow('POST');
        return api.capture(req, res, seg(1), raw);
      }
      if (route(/^\/v2\/payments\/captures\/([^/]+)$/)) {
        allow('GET');
        return api.getCapture(req, res, seg(1));
      }
      if (route(/^\/v2\/payments\/captures\/([^/]+)\/refund$/)) {
        allow('POST');
        return api.refund(req, res, seg(1), raw);
      }
      if (route(/^\/v2\/payments\/refunds\/([^/]+)$/)) {
        allow('GET');
        return api.getRefund(req, res, seg(1));
      }
      if (route(/^\/v1\/customer\/disputes\/([^/]+)$/)) {
        allow('GET');
        return api.getDispute(req, res, seg(1));
      }
      if (route(/^\/simulator$/)) {
        allow('GET');
        return dashboard.page(res);
      }
      if (route(/^\/simulator\/captures\/([^/]+)\/(refund|reverse|dispute|complete|deny)$/)) {
        allow('POST');
        return dashboard.captureAction(req, res, seg(1), seg(2), raw);
      }
      if (route(/^\/simulator\/outage$/)) {
        allow('POST');
        return dashboard.outage(req, res, raw);
      }
      if (route(/^\/simulator\/disputes\/([^/]+)\/resolve$/)) {
        allow('POST');
        return dashboard.resolveDispute(req, res, seg(1), raw);
      }
      if (route(/^\/v1\/notifications\/verify-webhook-signature$/)) {
        allow('POST');
        return api.verifySignature(req, res, raw);
      }
      if (route(/^\/v1\/notifications\/webhooks-events\/([^/]+)$/)) {
        allow('GET');
        return api.getEvent(req, res, seg(1));
      }
      if (route(/^\/v1\/notifications\/webhooks-events\/([^/]+)\/resend$/)) {
        allow('POST');
        return api.resendEvent(req, res, seg(1));
      }
      if (route(/^\/v1\/notifications\/certs\/([^/]+)$/)) {
        allow('GET');
        return api.cert(res, seg(1));
      }
      if (route(/^\/checkoutnow$/)) {
        allow('GET');
        return checkout.checkoutPage(res, u.searchParams.get('token'));
      }
      if (route(/^\/checkoutnow\/(approve|cancel)$/)) {
        allow('POST');
        return checkout.checkoutAction(res, seg(1) as 'approve' | 'cancel', raw, u.searchParams);
      }
      if (subscriptions?.(req, res, method, path, u.searchParams, raw)) return;
      throw apiError(404, 'RESOURCE_NOT_FOUND', [
        { field: 'path', value: path, location: 'path', issue: 'INVALID_RESOURCE_ID', description: 'The simulator has no such endpoint.' },
      ]);
    } catch (err) {
      if (err instanceof PaypalError) return sendJson(res, err.status, err.body);
      throw err;
    }
  }

  return (req: IncomingMessage, res: ServerResponse): void => {
    handle(req, res).catch((err: unknown) => {
      log(`paypal-sim: internal error: ${err instanceof Error ? err.stack ?? err.message : String(err)}`);
      if (res.headersSent) return void res.destroy();
      sendJson(res, 500, apiError(500, 'INTERNAL_SERVER_ERROR', undefined, 'An internal server error has occurred.').body);
    });
  };
}
