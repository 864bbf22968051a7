/** The payment use cases' ports, wired to the real adapters once per cold start. */
import { randomUUID } from 'node:crypto';
import { dynamo } from '../adapters/aws-clients';
import { dynamoAccountStore } from '../adapters/dynamodb-accounts';
import { dynamoLedgerHistory } from '../adapters/dynamodb-ledger';
import { dynamoOrderStore } from '../adapters/dynamodb-orders';
import { dynamoWebhookInbox } from '../adapters/dynamodb-webhook-inbox';
import { PAYPAL_SANDBOX_URL, paypalClient } from '../adapters/paypal-client';
import { requireSecret } from '../adapters/secrets';
import type { CreatePaymentDeps } from '../app/create-payment';
import type { ListPaymentsDeps } from '../app/list-payments';
import type { WebhookDeps } from '../app/settle-order';
import type { PaymentProvider } from '../ports/payments';
import { config } from '../config';
import { logger } from './http';

const c = config();
let provider: Promise<PaymentProvider> | undefined;

/** Credentials come from the environment locally and from Secrets Manager in the cloud; never from the web app. */
function paypal(): Promise<PaymentProvider> {
  provider ??= Promise.all([requireSecret('PAYPAL_CLIENT_ID'), requireSecret('PAYPAL_CLIENT_SECRET'), requireSecret('PAYPAL_WEBHOOK_ID')])
    .then(([clientId, clientSecret, webhookId]) =>
      // Without PAYPAL_BASE_URL the sandbox: going live is a deliberate configuration change.
      paypalClient({ baseUrl: c.PAYPAL_BASE_URL ?? PAYPAL_SANDBOX_URL, clientId, clientSecret, webhookId }),
    )
    .catch((err) => {
      provider = undefined;
      throw err;
    });
  return provider;
}

export const accounts = dynamoAccountStore(dynamo(), c.TABLE_NAME);

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
