import { paymentReturnPath } from '../../contract/payments';
import { routeById } from '../../contract/routes';
import { dynamo } from '../adapters/aws-clients';
import { dynamoOrderStore } from '../adapters/dynamodb-orders';
import { cancelPaymentReturn } from '../app/settle-order';
import { config } from '../config';
import { logger, publicRoute } from './http';

const route = routeById('paypalCancel');

// Only the order store: cancelling asks PayPal nothing, so this function never loads the PayPal client or its secret.
const deps = {
  orders: dynamoOrderStore(dynamo(), config().TABLE_NAME),
  log: (message: string, details: Record<string, unknown>) => logger.warn(message, details),
};

/** The buyer cancelled on PayPal: back to the page they started from, with `payment=cancel`. Nothing changes. */
export const handler = publicRoute(route, async (req) => {
  const { outcome, returnPath } = await cancelPaymentReturn(deps, req.query);
  return { redirect: paymentReturnPath(outcome, returnPath) };
});
