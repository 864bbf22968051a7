import { routeById } from '../../contract/routes';
import { createPayment } from '../app/create-payment';
import { createPaymentDeps } from '../wiring/deps';
import { userRoute } from './http';

const route = routeById('createPaypalPayment');

export const handler = userRoute(route, async (req, me) => ({ body: await createPayment(createPaymentDeps(), me, req.body) }));
