/**
 * PayPal REST simulator (OAuth2 client credentials, Orders v2, webhooks), used by `npm start` and the tests in
 * place of https://api-m.paypal.com. node:http only.
 *
 * State: issued access tokens, orders, captures, the PayPal-Request-Id idempotency records, the webhook events sent,
 * the raw body of each delivery and the signing key. With `dataDir` (the embedded stack's `.data/paypal/`) it is
 * also kept on disk, written atomically before each answer that changed it (persist.ts), so a restart (even a
 * `kill -9`) forgets no order, deliveries sent before it still verify, and deliveries not finished go out again.
 * Without it, state lives in memory only. Maps only grow, which is fine for a development server and a test run.
 *
 * Endpoints (JSON bodies and error shapes as PayPal's; `Authorization: Bearer <token>` required except where noted):
 * - POST /v1/oauth2/token                       Basic clientId:clientSecret, grant_type=client_credentials (no Bearer)
 * - POST /v2/checkout/orders                     create (intent CAPTURE); idempotent by PayPal-Request-Id
 * - GET  /v2/checkout/orders/{id}
 * - POST /v2/checkout/orders/{id}/capture        idempotent by PayPal-Request-Id
 * - GET  /v2/payments/captures/{id}
 * - POST /v2/payments/captures/{id}/refund       full (empty body) or partial ({amount}), PayPal's 422s; idempotent by PayPal-Request-Id
 * - GET  /v2/payments/refunds/{id}, GET /v1/customer/disputes/{id}
 * - POST /v1/notifications/verify-webhook-signature
 * - GET  /v1/notifications/webhooks-events/{id}, POST /v1/notifications/webhooks-events/{id}/resend
 * - GET  /v1/notifications/certs/{id}            the signing key, PEM (no Bearer; see below)
 * - GET  /checkoutnow?token={id}                 buyer approval page (HTML, no auth), forms POST to
 *   /checkoutnow/approve (with the funding outcome: COMPLETED, PENDING, DECLINED, INSTRUMENT_DECLINED) and
 *   /checkoutnow/cancel; an order not approved within the approval window (3 h) is expired there
 * - GET  /simulator                              the dashboard (no auth): every capture and its actions, which POST to
 *   /simulator/captures/{id}/(refund|reverse|dispute|complete|deny) and /simulator/disputes/{id}/resolve (dashboard.ts)
 * - POST /simulator/outage                       PayPal away (for everything, or one order): the API drops connections
 *   and webhooks are held (outage.ts)
 * - POST /simulator/webhooks/lost                 {on, about}: new events about an order, subscription or sale are
 *   recorded but never delivered (outage.ts)
 *
 * Orders created with `payment_source.paypal` start PAYER_ACTION_REQUIRED with a `payer-action` link (PayPal's
 * current flow); orders created with only the legacy `application_context` start CREATED with an `approve` link, as
 * on PayPal. Approval -> APPROVED, capture -> COMPLETED (its capture COMPLETED, PENDING or DECLINED as the buyer's
 * funding chose; INSTRUMENT_DECLINED fails the capture call with a redirect link and the order stays APPROVED for a
 * new approval). Cancelling on the approval page leaves the order as it was (PayPal does not void it), so the
 * simulator never produces VOIDED. Refunds, reversals and disputes send PAYMENT.CAPTURE.REFUNDED / REVERSED and
 * CUSTOMER.DISPUTE.CREATED / RESOLVED; pending captures PAYMENT.CAPTURE.PENDING, then COMPLETED or DENIED.
 *
 * Deliveries: each event's first attempt waits a random 0..webhookJitterMs (events overtake each other, as PayPal's
 * do), a failed one is retried after each of webhookRetryDelaysMs.
 *
 * Webhooks are signed for real, PayPal's scheme: an RSA key pair is generated at start, and
 * paypal-transmission-sig = base64(RSA-SHA256(`${transmissionId}|${transmissionTime}|${webhookId}|${crc32(body)}`)).
 * paypal-cert-url points at /v1/notifications/certs/..., which serves the public key as PEM (PayPal serves an
 * X.509 certificate; node:crypto verifies with either). verify-webhook-signature says SUCCESS only when the
 * webhook_id is the configured one, auth_algo and cert_url are what was sent, the transmission id is one the
 * simulator sent, the signature verifies with its public key over that transmission's id, time, webhook id and the
 * CRC-32 of the raw body it sent, and the verify request carries that raw body byte for byte as its webhook_event.
 * Events are sent with every "/" escaped as "\/" (valid JSON), so a receiver that parses and re-serialises the event
 * fails verification, as it can on PayPal; any changed, added or removed field fails too.
 *
 * Subscriptions v1 and Catalog Products v1 (billing plans, subscriptions, their approval page, sales, the BILLING.SUBSCRIPTION.*
 * and PAYMENT.SALE.* webhooks, the dashboard's bill/suspend/reactivate/cancel): subscriptions.ts, which says what it serves.
 *
 * Files: types.ts (shapes), validation.ts + money.ts (request checks), errors.ts, state.ts (orders, captures,
 * tokens, refunds, disputes), webhooks.ts + crc32.ts (events, signing, verification), api.ts (REST endpoints),
 * checkout.ts + pages.ts (buyer pages), dashboard.ts (after-capture actions), routes.ts (the route table), persist.ts
 * (state on disk); local/shared/http.ts, persist.ts and route-table.ts as the Replicate simulator uses them.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { createApi } from './api';
import { createCheckout } from './checkout';
import { createDashboard } from './dashboard';
import { createRouter } from './routes';
import { createLostWebhooks, createOutage, idsOfEvent, orderOfEvent } from './outage';
import { savingBeforeAnswer } from '../shared/persist';
import { persistence } from './persist';
import { createState } from './state';
import { createSubscriptions } from './subscriptions';
import { apiError } from './errors';
import { header } from '../shared/http';
import type { PaypalSim, PaypalSimOptions } from './types';
import { createWebhooks } from './webhooks';

export { crc32 } from './crc32';
export type { PaypalSim, PaypalSimOptions } from './types';

export function startPaypalSimulator(opts: PaypalSimOptions): Promise<PaypalSim> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? (() => {});
  let webhookUrl = opts.webhookUrl;
  let url = '';
  let publicBaseUrl = '';
  let closed = false;

  const outage = createOutage();
  const lostWebhooks = createLostWebhooks();
  const disk = opts.dataDir ? persistence(opts.dataDir, log) : undefined;
  const saved = disk?.load();
  let save = () => {};
  const webhooks = createWebhooks({
    changed: () => save(),
    held: (event) => outage.blocksOrder(orderOfEvent(event.resource)),
    lost: (event) => lostWebhooks.drops(idsOfEvent(event.resource)),
    webhookId: opts.webhookId,
    fetchImpl: opts.fetchImpl ?? globalThis.fetch.bind(globalThis),
    log,
    url: () => url,
    target: () => webhookUrl,
    retryDelaysMs: opts.webhookRetryDelaysMs ?? [250, 1_000, 5_000, 30_000, 120_000],
    jitterMs: opts.webhookJitterMs ?? 100,
  }, saved?.webhooks);
  const state = createState({ url: () => url, publicBaseUrl: () => publicBaseUrl, webhooks, approvalWindowMs: opts.approvalWindowMs ?? 3 * 60 * 60 * 1000 });
  const subscriptions = createSubscriptions({
    url: () => url,
    publicBaseUrl: () => publicBaseUrl,
    webhooks,
    requireBearer: (req) => {
      const m = /^Bearer\s+(\S+)$/i.exec(header(req, 'authorization') ?? '');
      const expiry = m?.[1] ? state.tokens.get(m[1]) : undefined;
      if (expiry === undefined || expiry < Date.now()) throw apiError(401, 'AUTHENTICATION_FAILURE');
    },
  });
  if (saved) state.restore(saved.state);
  subscriptions.restore(saved?.subscriptions);
  if (disk) save = () => disk.save({ state: state.snapshot(), webhooks: webhooks.snapshot(), subscriptions: subscriptions.snapshot() });
  const router = createRouter(createApi(opts, state, webhooks), createCheckout(state), createDashboard(state, outage, lostWebhooks), outage, log, subscriptions.routes);
  const server = http.createServer(disk ? savingBeforeAnswer(router, () => save()) : router);

  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, host, () => {
      // Deliveries a previous run had not finished go out again once the URL is known.
      if (saved) setImmediate(() => webhooks.resumeDeliveries());
      server.off('error', reject);
      const { port } = server.address() as AddressInfo;
      const shownHost = host === '0.0.0.0' ? '127.0.0.1' : host === '::' ? '::1' : host;
      url = `http://${shownHost.includes(':') ? `[${shownHost}]` : shownHost}:${port}`;
      publicBaseUrl = (opts.publicBaseUrl ?? url).replace(/\/+$/, '');
      resolve({
        url,
        async close() {
          if (closed) return;
          closed = true;
          webhooks.close();
          await new Promise<void>((done) => {
            server.close(() => done());
            server.closeAllConnections();
          });
        },
        setWebhookUrl(next) {
          webhookUrl = next;
        },
        orders() {
          return [...state.orders.values()].map((o) => structuredClone(o));
        },
        billSubscription(id, outcome) {
          subscriptions.bill(id, outcome);
          save();
        },
        approve(orderId, outcome) {
          const o = state.orders.get(orderId);
          if (!o) throw new Error(`paypal-sim: no order ${orderId}`);
          if (o.status === 'COMPLETED') throw new Error(`paypal-sim: order ${orderId} is already completed`);
          if (!state.approveOrder(o, outcome)) throw new Error(`paypal-sim: order ${orderId} can no longer be approved`);
          save();
        },
      });
    });
  });
}
