/**
 * PayPal's own server SDK, pointed at the simulator, for every call our adapters make that the SDK covers: it must
 * parse each answer into its typed result and each refusal into its ApiError with PayPal's name and details. The SDK
 * has no catalog products, no verify-webhook-signature and no v1 sales; those stay covered by paypal-sim*.test.ts.
 */
import {
  ApiError,
  CheckoutPaymentIntent,
  Client,
  Environment,
  ExperienceContextShippingPreference,
  IntervalUnit,
  ItemCategory,
  OrdersController,
  PayeePaymentMethodPreference,
  PaymentsController,
  PaypalExperienceUserAction,
  PaypalWalletContextShippingPreference,
  PlanRequestStatus,
  SetupFeeFailureAction,
  SubscriptionsController,
  TenureType,
} from '@paypal/paypal-server-sdk';
import { startPaypalSimulator, type PaypalSim } from '../../local/paypal-sim';

const CLIENT_ID = 'sim-client-id';
const CLIENT_SECRET = 'sim-client-secret';
let sim: PaypalSim;
let orders: OrdersController;
let payments: PaymentsController;
let subscriptions: SubscriptionsController;

/**
 * The SDK only knows PayPal's two hosts; its HTTP client (axios) takes a fetch of our own, which sends each request
 * to the simulator with the same path, query, headers and body.
 */
const toSim: typeof fetch = (input, init) => {
  const url = new URL(input instanceof Request ? input.url : String(input));
  const target = `${sim.url}${url.pathname}${url.search}`;
  return fetch(input instanceof Request ? new Request(target, input) : target, init);
};

beforeAll(async () => {
  sim = await startPaypalSimulator({ clientId: CLIENT_ID, clientSecret: CLIENT_SECRET, webhookId: 'WH-SIM-SDK', webhookJitterMs: 0 });
  const client = new Client({
    environment: Environment.Sandbox,
    clientCredentialsAuthCredentials: { oAuthClientId: CLIENT_ID, oAuthClientSecret: CLIENT_SECRET },
    timeout: 10_000,
    httpClientOptions: { retryConfig: { maxNumberOfRetries: 0 } },
    unstable_httpClientOptions: { adapter: 'fetch', env: { fetch: toSim } },
  });
  orders = new OrdersController(client);
  payments = new PaymentsController(client);
  subscriptions = new SubscriptionsController(client);
});
afterAll(() => sim.close());

/** The SDK's ApiError for this call, with PayPal's error body parsed. */
async function refusal(p: Promise<unknown>): Promise<{ status: number; name: string; issue?: string }> {
  const e: unknown = await p.then(
    () => undefined,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(ApiError);
  const err = e as ApiError<{ name: string; details?: { issue: string }[] }>;
  return { status: err.statusCode, name: err.result?.name ?? '', issue: err.result?.details?.[0]?.issue };
}

const usd = (value: string) => ({ currencyCode: 'USD', value });

function createOrder(requestId: string, value = '9.00') {
  return orders.createOrder({
    paypalRequestId: requestId,
    body: {
      intent: CheckoutPaymentIntent.Capture,
      purchaseUnits: [
        {
          referenceId: 'pack-72',
          customId: 'user-1:pack-72',
          description: 'Framewright 72 credits',
          amount: { ...usd(value), breakdown: { itemTotal: usd(value) } },
          items: [{ name: '72 credits', quantity: '1', unitAmount: usd(value), category: ItemCategory.DigitalGoods }],
        },
      ],
      paymentSource: {
        paypal: {
          experienceContext: {
            brandName: 'Framewright',
            userAction: PaypalExperienceUserAction.PayNow,
            shippingPreference: PaypalWalletContextShippingPreference.NoShipping,
            paymentMethodPreference: PayeePaymentMethodPreference.ImmediatePaymentRequired,
            returnUrl: 'http://app.test/billing/return',
            cancelUrl: 'http://app.test/billing/cancel',
          },
        },
      },
    },
  });
}

describe('PayPal SDK against the simulator: Orders v2 and Payments v2', () => {
  it('creates, reads, captures, reads the capture and refunds it, each parsed into the typed result', async () => {
    const created = (await createOrder('sdk-order-1')).result;
    expect(created).toMatchObject({ id: expect.any(String), status: 'PAYER_ACTION_REQUIRED' });
    expect(created.links?.find((l) => l.rel === 'payer-action')?.href).toMatch(/^http/);
    const id = created.id!;

    const read = (await orders.getOrder({ id })).result;
    expect(read.purchaseUnits?.[0]).toMatchObject({ customId: 'user-1:pack-72', amount: { currencyCode: 'USD', value: '9.00' } });

    sim.approve(id);
    const captured = (await orders.captureOrder({ id, paypalRequestId: 'sdk-capture-1' })).result;
    expect(captured.status).toBe('COMPLETED');
    const capture = captured.purchaseUnits?.[0]?.payments?.captures?.[0];
    expect(capture).toMatchObject({ id: expect.any(String), status: 'COMPLETED', customId: 'user-1:pack-72', amount: usd('9.00') });

    const got = (await payments.getCapturedPayment({ captureId: capture!.id! })).result;
    expect(got).toMatchObject({ id: capture!.id, status: 'COMPLETED', amount: usd('9.00') });
    expect(got.supplementaryData?.relatedIds?.orderId).toBe(id);

    const refund = (await payments.refundCapturedPayment({ captureId: capture!.id!, paypalRequestId: 'sdk-refund-1', body: { amount: usd('4.00') } })).result;
    // Without `Prefer: return=representation` PayPal answers the minimal refund: id, status and links.
    expect(refund).toMatchObject({ id: expect.any(String), status: 'COMPLETED' });
    expect((await payments.getRefund({ refundId: refund.id! })).result).toMatchObject({ id: refund.id, status: 'COMPLETED', amount: usd('4.00') });
    const full = (await payments.refundCapturedPayment({ captureId: capture!.id!, prefer: 'return=representation', body: { amount: usd('5.00') } })).result;
    expect(full).toMatchObject({ status: 'COMPLETED', amount: usd('5.00'), sellerPayableBreakdown: { totalRefundedAmount: usd('9.00') } });
    expect((await payments.getCapturedPayment({ captureId: capture!.id! })).result.status).toBe('REFUNDED');
  });

  it("turns PayPal's refusals into the SDK's ApiError with PayPal's name and issue", async () => {
    expect(await refusal(orders.getOrder({ id: 'NOSUCHORDER000000' }))).toMatchObject({ status: 404, name: 'RESOURCE_NOT_FOUND' });
    const id = (await createOrder('sdk-order-2')).result.id!;
    expect(await refusal(orders.captureOrder({ id }))).toMatchObject({ status: 422, name: 'UNPROCESSABLE_ENTITY', issue: 'ORDER_NOT_APPROVED' });
    expect(await refusal(createOrder('sdk-order-3', '9.001'))).toMatchObject({ status: 422, name: 'UNPROCESSABLE_ENTITY', issue: 'DECIMAL_PRECISION' });
    expect(await refusal(createOrder('sdk-order-4', 'nine'))).toMatchObject({ status: 400, name: 'INVALID_REQUEST', issue: 'INVALID_PARAMETER_SYNTAX' });
    sim.approve(id);
    const capture = (await orders.captureOrder({ id })).result.purchaseUnits![0]!.payments!.captures![0]!;
    expect(await refusal(orders.captureOrder({ id }))).toMatchObject({ status: 422, issue: 'ORDER_ALREADY_CAPTURED' });
    expect(await refusal(payments.refundCapturedPayment({ captureId: capture.id!, body: { amount: usd('90.00') } }))).toMatchObject({ status: 422, name: 'UNPROCESSABLE_ENTITY' });
  });
});

describe('PayPal SDK against the simulator: Subscriptions v1', () => {
  async function activePlan(): Promise<string> {
    // The SDK has no catalog products: the product is made over plain HTTP, as the simulator's own tests do.
    const token = (await (await toSim('https://api-m.sandbox.paypal.com/v1/oauth2/token', {
      method: 'POST',
      headers: { authorization: `Basic ${Buffer.from(`${CLIENT_ID}:${CLIENT_SECRET}`).toString('base64')}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'grant_type=client_credentials',
    })).json()) as { access_token: string };
    const product = (await (await toSim('https://api-m.sandbox.paypal.com/v1/catalogs/products', {
      method: 'POST',
      headers: { authorization: `Bearer ${token.access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Credits', type: 'DIGITAL', category: 'SOFTWARE' }),
    })).json()) as { id: string };
    const plan = (
      await subscriptions.createBillingPlan({
        paypalRequestId: `sdk-plan-${product.id}`,
        body: {
          productId: product.id,
          name: 'Starter: 500 credits a month',
          status: PlanRequestStatus.Active,
          billingCycles: [
            { frequency: { intervalUnit: IntervalUnit.Month, intervalCount: 1 }, tenureType: TenureType.Regular, sequence: 1, totalCycles: 0, pricingScheme: { fixedPrice: usd('9.99') } },
          ],
          paymentPreferences: { autoBillOutstanding: true, setupFeeFailureAction: SetupFeeFailureAction.Cancel, paymentFailureThreshold: 2 },
        },
      })
    ).result;
    expect(plan).toMatchObject({ id: expect.any(String), productId: product.id, status: 'ACTIVE' });
    return plan.id!;
  }

  /** The buyer agrees on the simulator's approval page. */
  async function approve(href: string) {
    const approved = await fetch(`${sim.url}/webapps/billing/subscriptions/approve`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ ba_token: new URL(href).searchParams.get('ba_token')! }).toString(),
    });
    expect(approved.status).toBe(302);
  }

  const context = { returnUrl: 'http://app.test/return', cancelUrl: 'http://app.test/cancel', shippingPreference: ExperienceContextShippingPreference.NoShipping };

  it('creates, approves, reads, lists transactions, revises, suspends, activates and cancels', async () => {
    const plan = await activePlan();
    const created = (await subscriptions.createSubscription({ paypalRequestId: 'sdk-sub-1', body: { planId: plan, customId: 'user-1', applicationContext: { ...context, brandName: 'Framewright' } } })).result;
    expect(created).toMatchObject({ id: expect.any(String), status: 'APPROVAL_PENDING', planId: plan });
    await approve(created.links!.find((l) => l.rel === 'approve')!.href);
    const id = created.id!;

    const active = (await subscriptions.getSubscription({ id })).result;
    expect(active).toMatchObject({ id, status: 'ACTIVE', customId: 'user-1', planId: plan });
    expect(active.billingInfo).toMatchObject({ failedPaymentsCount: 0, nextBillingTime: expect.any(String), lastPayment: { amount: usd('9.99') } });

    const sales = (await subscriptions.listSubscriptionTransactions({ id, startTime: '2020-01-01T00:00:00Z', endTime: '2100-01-01T00:00:00Z' })).result;
    expect(sales.transactions?.[0]).toMatchObject({
      id: expect.any(String),
      status: 'COMPLETED',
      time: expect.any(String),
      amountWithBreakdown: { grossAmount: usd('9.99'), feeAmount: { currencyCode: 'USD' }, netAmount: { currencyCode: 'USD' } },
      payerName: { givenName: expect.any(String), surname: expect.any(String) },
      payerEmail: expect.stringContaining('@'),
    });

    const revised = (await subscriptions.reviseSubscription({ id, body: { planId: plan, applicationContext: context } })).result;
    expect(revised.links?.find((l) => l.rel === 'approve')?.href).toMatch(/^http/);

    expect((await subscriptions.suspendSubscription({ id, body: { reason: 'paused' } })).statusCode).toBe(204);
    expect((await subscriptions.getSubscription({ id })).result.status).toBe('SUSPENDED');
    expect((await subscriptions.activateSubscription({ id, body: { reason: 'back' } })).statusCode).toBe(204);
    expect((await subscriptions.cancelSubscription({ id, body: { reason: 'bye' } })).statusCode).toBe(204);
    expect((await subscriptions.getSubscription({ id })).result.status).toBe('CANCELLED');
  });

  it("turns PayPal's refusals into the SDK's ApiError with PayPal's name and issue", async () => {
    expect(await refusal(subscriptions.getSubscription({ id: 'I-NOSUCHSUB000' }))).toMatchObject({ status: 404, name: 'RESOURCE_NOT_FOUND' });
    const plan = await activePlan();
    const id = (await subscriptions.createSubscription({ body: { planId: plan, applicationContext: context } })).result.id!;
    expect(await refusal(subscriptions.cancelSubscription({ id, body: { reason: 'x' } }))).toMatchObject({ status: 422, name: 'UNPROCESSABLE_ENTITY', issue: 'SUBSCRIPTION_STATUS_INVALID' });
    expect(await refusal(subscriptions.listSubscriptionTransactions({ id, startTime: 'yesterday', endTime: 'today' }))).toMatchObject({ status: 400, name: 'INVALID_REQUEST' });
    // ppaas_date_time_v3: seconds are required.
    expect(await refusal(subscriptions.listSubscriptionTransactions({ id, startTime: '2020-01-01T00:00Z', endTime: '2100-01-01T00:00:00Z' }))).toMatchObject({ status: 400, issue: 'INVALID_PARAMETER_SYNTAX' });

    // A failed month: typed on the subscription, and it keeps a suspended subscription from being activated.
    await approve((await subscriptions.getSubscription({ id })).result.links!.find((l) => l.rel === 'approve')!.href);
    sim.billSubscription(id, 'failed');
    const failed = (await subscriptions.getSubscription({ id })).result.billingInfo;
    expect(failed).toMatchObject({ failedPaymentsCount: 1, outstandingBalance: usd('9.99'), lastFailedPayment: { amount: usd('9.99'), nextPaymentRetryTime: expect.any(String) } });
    await subscriptions.suspendSubscription({ id, body: { reason: 'x' } });
    expect(await refusal(subscriptions.activateSubscription({ id, body: { reason: 'x' } }))).toMatchObject({ status: 422, issue: 'SUBSCRIPTION_CANNOT_BE_ACTIVATED' });
    expect(await refusal(subscriptions.createSubscription({ body: { planId: 'P-NOSUCHPLAN0000000000000', applicationContext: context } }))).toMatchObject({ status: 404 });
  });
});
