/**
 * The Subscriptions adapter's transaction list (`listSales`: GET /v1/billing/subscriptions/{id}/transactions, what the
 * plans' reconciler reads) against the embedded stack's PayPal simulator: each billing payment with PayPal's status
 * (COMPLETED, PARTIALLY_REFUNDED, REFUNDED), gross amount and time, within the range asked; an unknown subscription is
 * PayPal's 404; PayPal away is unavailable, never an empty list.
 */
import { LOCAL_SECRETS } from '../../local/shared/local-secrets';
import { randomUUID } from 'node:crypto';
import { PLANS } from '../../contract/plans';
import { paypalApi } from '../../lambdas/adapters/paypal-client';
import { paypalSubscriptions } from '../../lambdas/adapters/paypal-subscriptions';
import { PaymentProviderUnavailable, PaymentRefused } from '../../lambdas/ports/payments';
import { simulatorAction } from '../support/payments';
import { atPaypal, decideSubscription } from '../support/subscriptions';
import { stackEnv } from '../support/users';

const STARTER = PLANS[0]!;

function provider() {
  const env = stackEnv();
  return paypalSubscriptions(paypalApi({ baseUrl: env.PAYPAL_BASE_URL!, clientId: LOCAL_SECRETS.paypalClientId, clientSecret: LOCAL_SECRETS.paypalClientSecret }));
}

/** A subscription to Starter, approved at PayPal (its first month billed), and two more months billed. */
async function billedThrice() {
  const paypal = provider();
  const product = await paypal.createProduct(randomUUID(), 'Adapter test credits');
  const plan = await paypal.createPlan(randomUUID(), product, STARTER);
  const s = await paypal.createSubscription({
    requestId: randomUUID(),
    paypalPlanId: plan,
    customId: 'sub-adapter-test',
    returnUrl: 'http://app.test/api/paypal/subscription-return',
    cancelUrl: 'http://app.test/api/paypal/subscription-cancel',
    brandName: 'Framewright',
  });
  await decideSubscription(s.approvalUrl!, 'approve');
  for (let i = 0; i < 2; i++) expect((await atPaypal(s.id, 'bill', 'completed')).status).toBe(200);
  return { paypal, id: s.id };
}

const ALL_TIME = [new Date('2020-01-01T00:00:00Z'), new Date('2100-01-01T00:00:00Z')] as const;

describe('paypalSubscriptions.listSales', () => {
  it("lists each billing payment with PayPal's status, amount and time; refunds show in the status", async () => {
    const { paypal, id } = await billedThrice();
    const sales = await paypal.listSales(id, ...ALL_TIME);
    expect(sales).toHaveLength(3);
    for (const s of sales) {
      expect(s).toEqual({ id: expect.stringMatching(/^[A-Za-z0-9]{17}$/), status: 'COMPLETED', amount: { currency: 'USD', value: STARTER.price }, time: expect.any(String) });
      expect(Number.isNaN(Date.parse(s.time))).toBe(false);
    }
    await simulatorAction(`/simulator/sales/${sales[1]!.id}/refund`, { amount: '1.00' });
    await simulatorAction(`/simulator/sales/${sales[2]!.id}/reverse`);
    const after = new Map((await paypal.listSales(id, ...ALL_TIME)).map((s) => [s.id, s]));
    expect(after.get(sales[0]!.id)?.status).toBe('COMPLETED');
    expect(after.get(sales[1]!.id)).toMatchObject({ status: 'PARTIALLY_REFUNDED', amount: { currency: 'USD', value: STARTER.price } });
    // PayPal's list has no REVERSED: the money went back, the sale lists as REFUNDED.
    expect(after.get(sales[2]!.id)?.status).toBe('REFUNDED');
  });

  it('only the payments within the range asked for', async () => {
    const { paypal, id } = await billedThrice();
    const sales = await paypal.listSales(id, ...ALL_TIME);
    const first = Date.parse(sales[0]!.time);
    expect(await paypal.listSales(id, new Date('2020-01-01T00:00:00Z'), new Date(first - 1000))).toEqual([]);
    expect((await paypal.listSales(id, new Date(first - 1000), ALL_TIME[1])).length).toBe(3);
  });

  it("an unknown subscription is PayPal's 404; PayPal away is unavailable, not an empty list", async () => {
    const paypal = provider();
    await expect(paypal.listSales('I-NOSUCHSUB000', ...ALL_TIME)).rejects.toMatchObject({ constructor: PaymentRefused, status: 404 });
    const { id } = await billedThrice();
    await simulatorAction('/simulator/outage', { on: 'true', order: id });
    try {
      await expect(provider().listSales(id, ...ALL_TIME)).rejects.toBeInstanceOf(PaymentProviderUnavailable);
    } finally {
      await simulatorAction('/simulator/outage', { on: 'false', order: id });
    }
  });
});
