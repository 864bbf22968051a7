import { routeById } from '../../contract/routes';
import { handlePaymentWebhook } from '../app/settle-order';
import { paymentDeps } from './payments-deps';
import { logger, publicRoute } from './http';

const route = routeById('paypalWebhook');

/** PayPal's callbacks: verified by PayPal, idempotent by event id. A 5xx makes PayPal deliver the event again. */
export const handler = publicRoute(route, async (req) => {
  const outcome = await handlePaymentWebhook(paymentDeps, { headers: req.headers, rawBody: req.rawBody });
  logger.info('PayPal webhook', { ...outcome });
  return { body: { ok: true, ...outcome } };
});
