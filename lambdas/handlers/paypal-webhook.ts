import { routeById } from '../../contract/routes';
import { applyPaymentWebhook } from '../app/apply-payment-webhook';
import { logger } from '../logger';
import { applyPaymentWebhookDeps } from '../wiring/deps';
import { publicRoute } from './http';

const route = routeById('paypalWebhook');

/** PayPal's callbacks: verified by PayPal, idempotent by event id. A 5xx makes PayPal deliver the event again. */
export const handler = publicRoute(route, async (req) => {
  const outcome = await applyPaymentWebhook(applyPaymentWebhookDeps(), { headers: req.headers, rawBody: req.rawBody, query: req.rawQuery });
  logger.info('PayPal webhook', { ...outcome });
  return { body: { ok: true, ...outcome } };
});
