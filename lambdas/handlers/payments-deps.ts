/** The payment use cases' ports, wired to the real adapters once per cold start. */
import { randomUUID } from 'node:crypto';
import { dynamo } from '../adapters/aws-clients';
import { dynamoLedgerHistory } from '../adapters/dynamodb-ledger';
import { dynamoOrderStore } from '../adapters/dynamodb-orders';
import { dynamoWebhookInbox } from '../adapters/dynamodb-webhook-inbox';
import { PAYPAL_SANDBOX_URL, paypalClient } from '../adapters/paypal-client';
import { memoUntilFailure } from '../adapters/memo-until-failure';
import { requireSecret } from '../adapters/secrets';
import type { CreatePaymentDeps } from '../app/create-payment';
import type { ListPaymentsDeps } from '../app/list-payments';
import type { WebhookDeps } from '../app/settle-order';
import { config } from '../config';
import { logger } from './http';

const c = config();

/** Credentials come from the environment locally and from Secrets Manager in the cloud; never from the web app. */
const paypal = memoUntilFailure(async () => {
  const [clientId, clientSecret, webhookId] = await Promise.all([
    requireSecret('PAYPAL_CLIENT_ID'),
    requireSecret('PAYPAL_CLIENT_SECRET'),
    requireSecret('PAYPAL_WEBHOOK_ID'),
  ]);
  // Without PAYPAL_BASE_URL the sandbox: going live is a deliberate configuration change.
  return paypalClient({ baseUrl: c.PAYPAL_BASE_URL ?? PAYPAL_SANDBOX_URL, clientId, clientSecret, webhookId });
});

const orders = dynamoOrderStore(dynamo(), c.TABLE_NAME);
const log = (message: string, details: Record<string, unknown>) => logger.warn(message, details);

export const paymentDeps: CreatePaymentDeps & WebhookDeps & ListPaymentsDeps = {
  orders,
  ledger: dynamoLedgerHistory(dynamo(), c.TABLE_NAME),
  inbox: dynamoWebhookInbox(dynamo(), c.TABLE_NAME, 'paypal'),
  provider: paypal,
  appUrl: c.APP_URL,
  now: () => new Date(),
  newRequestId: () => randomUUID(),
  log,
};
