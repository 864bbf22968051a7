/**
 * The REST endpoints (JSON bodies and error shapes as PayPal's; `Authorization: Bearer <token>` unless noted):
 * OAuth2 client credentials (Basic auth), Orders v2 create/get/capture (idempotent by PayPal-Request-Id),
 * captures, webhook events (get, resend), verify-webhook-signature and the signing certificate (no auth).
 */
import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiError, malformedJson, notFound, PaypalError, sendPaypalJson } from './errors';
import { header, isJsonContentType } from '../shared/http';
import { now } from './ids';
import type { State } from './state';
import { validateCreate, validateRefund, validateVerify } from './validation';
import type { Webhooks } from './webhooks';

const APP_ID = 'APP-80W284485P519543T';
const TOKEN_TTL_SECONDS = 32400;
const SCOPE =
  'https://uri.paypal.com/services/invoicing https://uri.paypal.com/services/payments/payment/authcapture ' +
  'openid https://uri.paypal.com/services/payments/refund https://uri.paypal.com/services/applications/webhooks ' +
  'https://uri.paypal.com/services/payments/orders/client_credentials';

export type Api = ReturnType<typeof createApi>;

export function createApi(o: { clientId: string; clientSecret: string }, state: State, webhooks: Webhooks) {
  function requireBearer(req: IncomingMessage): void {
    const m = /^Bearer\s+(\S+)$/i.exec(header(req, 'authorization') ?? '');
    const expiry = m?.[1] ? state.tokens.get(m[1]) : undefined;
    if (expiry === undefined || expiry < Date.now()) throw apiError(401, 'AUTHENTICATION_FAILURE');
  }

  function parseJson(raw: Buffer): unknown {
    try {
      return JSON.parse(raw.toString('utf8')) as unknown;
    } catch {
      throw malformedJson();
    }
  }

  function requireJson(req: IncomingMessage): void {
    if (!isJsonContentType(req)) {
      throw apiError(415, 'UNSUPPORTED_MEDIA_TYPE', undefined, 'The server does not support the request payload\'s media type. Send Content-Type: application/json.');
    }
  }

  function tokenEndpoint(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    const m = /^Basic\s+(\S+)$/i.exec(header(req, 'authorization') ?? '');
    const decoded = m?.[1] ? Buffer.from(m[1], 'base64').toString('utf8') : '';
    const sep = decoded.indexOf(':');
    const id = sep >= 0 ? decoded.slice(0, sep) : '';
    const secret = sep >= 0 ? decoded.slice(sep + 1) : '';
    if (id !== o.clientId || secret !== o.clientSecret) {
      return sendPaypalJson(res, 401, { error: 'invalid_client', error_description: 'Client Authentication failed' });
    }
    const grant = new URLSearchParams(raw.toString('utf8')).get('grant_type');
    if (!grant) return sendPaypalJson(res, 400, { error: 'unsupported_grant_type', error_description: 'Grant Type is NULL' });
    if (grant !== 'client_credentials') {
      return sendPaypalJson(res, 400, { error: 'unsupported_grant_type', error_description: `Grant Type ${grant} is not supported by the simulator` });
    }
    const token = `A21AA${crypto.randomBytes(66).toString('base64url')}`;
    state.tokens.set(token, Date.now() + TOKEN_TTL_SECONDS * 1000);
    sendPaypalJson(res, 200, {
      scope: SCOPE,
      access_token: token,
      token_type: 'Bearer',
      app_id: APP_ID,
      expires_in: TOKEN_TTL_SECONDS,
      nonce: `${now()}${crypto.randomBytes(32).toString('base64url')}`,
    });
  }

  function createOrder(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    requireBearer(req);
    const wantsFull = /return=representation/i.test(header(req, 'prefer') ?? '');
    const requestId = header(req, 'paypal-request-id');
    const earlier = requestId ? state.orderForRequest(requestId) : undefined;
    if (earlier) return sendPaypalJson(res, 200, wantsFull ? state.fullOrder(earlier) : state.minimalOrder(earlier));
    requireJson(req);
    const input = validateCreate(parseJson(raw));
    if (input instanceof PaypalError) throw input;
    const order = state.createOrder(input, requestId);
    sendPaypalJson(res, 201, wantsFull ? state.fullOrder(order) : state.minimalOrder(order));
  }

  function getOrder(req: IncomingMessage, res: ServerResponse, id: string): void {
    requireBearer(req);
    const order = state.orders.get(id);
    if (!order) throw notFound('order_id', id);
    sendPaypalJson(res, 200, state.fullOrder(order));
  }

  function capture(req: IncomingMessage, res: ServerResponse, id: string, raw: Buffer): void {
    requireBearer(req);
    const order = state.orders.get(id);
    if (!order) throw notFound('order_id', id);
    const requestId = header(req, 'paypal-request-id');
    const key = requestId ? `${id}\n${requestId}` : undefined;
    const replay = key ? state.captureResponses.get(key) : undefined;
    if (replay) return sendPaypalJson(res, 201, replay);
    if (raw.length && raw.toString('utf8').trim()) {
      requireJson(req);
      parseJson(raw);
    }
    if (order.status === 'COMPLETED') {
      throw apiError(422, 'UNPROCESSABLE_ENTITY', [
        { issue: 'ORDER_ALREADY_CAPTURED', description: "Order already captured. If 'intent=CAPTURE' only one capture per order is allowed." },
      ]);
    }
    if (order.status !== 'APPROVED') {
      throw apiError(422, 'UNPROCESSABLE_ENTITY', [
        {
          issue: 'ORDER_NOT_APPROVED',
          description:
            "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'payer-action' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
        },
      ]);
    }
    const made = state.captureOrder(order);
    const body = JSON.stringify(state.fullOrder(order));
    if (key) state.captureResponses.set(key, body);
    sendPaypalJson(res, 201, body);
    for (const c of made) {
      const amount = `${c.amount.currency_code === 'USD' ? '$ ' : ''}${c.amount.value} ${c.amount.currency_code}`;
      const [type, summary] =
        c.status === 'PENDING'
          ? ['PAYMENT.CAPTURE.PENDING', `Payment pending for ${amount}`]
          : c.status === 'DECLINED'
            ? ['PAYMENT.CAPTURE.DECLINED', `Payment declined for ${amount}`]
            : ['PAYMENT.CAPTURE.COMPLETED', `Payment completed for ${amount}`];
      webhooks.emit(type, 'capture', summary, state.captureResource(c, order.id));
    }
  }

  /** POST /v2/payments/captures/{id}/refund: empty body refunds what is left; idempotent by PayPal-Request-Id. */
  function refund(req: IncomingMessage, res: ServerResponse, id: string, raw: Buffer): void {
    requireBearer(req);
    let input = {};
    if (raw.length && raw.toString('utf8').trim()) {
      requireJson(req);
      input = validateRefund(parseJson(raw));
    }
    const r = state.refundCapture(id, input, 'refund', header(req, 'paypal-request-id'));
    const wantsFull = /return=representation/i.test(header(req, 'prefer') ?? '');
    sendPaypalJson(res, 201, wantsFull ? r : { id: r.id, status: r.status, links: r.links });
  }

  function getRefund(req: IncomingMessage, res: ServerResponse, id: string): void {
    requireBearer(req);
    const r = state.refundResource(id);
    if (!r) throw notFound('refund_id', id);
    sendPaypalJson(res, 200, r);
  }

  function getDispute(req: IncomingMessage, res: ServerResponse, id: string): void {
    requireBearer(req);
    const d = state.disputes.get(id);
    if (!d) throw notFound('dispute_id', id);
    sendPaypalJson(res, 200, d);
  }

  function getCapture(req: IncomingMessage, res: ServerResponse, id: string): void {
    requireBearer(req);
    const found = state.capture(id);
    if (!found) throw notFound('capture_id', id);
    sendPaypalJson(res, 200, state.captureResource(found.capture, found.orderId));
  }

  function verifySignature(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    requireBearer(req);
    requireJson(req);
    const ok = webhooks.verify(validateVerify(parseJson(raw)), raw.toString('utf8'));
    sendPaypalJson(res, 200, { verification_status: ok ? 'SUCCESS' : 'FAILURE' });
  }

  function getEvent(req: IncomingMessage, res: ServerResponse, id: string): void {
    requireBearer(req);
    const e = webhooks.event(id);
    if (!e) throw notFound('event_id', id);
    sendPaypalJson(res, 200, e.raw);
  }

  function resendEvent(req: IncomingMessage, res: ServerResponse, id: string): void {
    requireBearer(req);
    const e = webhooks.event(id);
    if (!e) throw notFound('event_id', id);
    webhooks.resend(id);
    sendPaypalJson(res, 202, e.raw);
  }

  /** The public key deliveries are signed with, as PEM (PayPal serves an X.509 certificate; node:crypto verifies with either). */
  function cert(res: ServerResponse, id: string): void {
    if (id !== webhooks.certId) throw notFound('cert_id', id);
    res.writeHead(200, { 'content-type': 'application/x-pem-file', 'cache-control': 'public, max-age=3600' });
    res.end(webhooks.publicKeyPem);
  }

  return { tokenEndpoint, createOrder, getOrder, capture, getCapture, refund, getRefund, getDispute, verifySignature, getEvent, resendEvent, cert };
}
