import { routeById } from '../../contract/routes';
import { createPayment } from '../app/create-payment';
import { createPaymentDeps } from '../wiring/deps';
import { idempotentUserRoute } from './idempotent';

const route = routeById('createPaypalPayment');

export const handler = idempotentUserRoute(route, async (req, me) => ({ body: await createPayment(createPaymentDeps(), me, req.body) }));
