/**
 * Orders are reconciled like jobs: PayPal away at the buyer's return, or for longer than its webhook retries, and an
 * approved order is still captured once, by the reconciler, and the page says pending (never a failure) until then.
 * Each test takes PayPal away for its own order only (the simulator's outage switch), so tests beside it run as usual.
 */
import { userItems } from '../support/generation';
import { appPath, decideAtPaypal, handledEvents, orderItem, PACK_72, simulatorAction, startPayment, visit } from '../support/payments';
import { api, createUser, stackUrl, type TestUser } from '../support/users';

jest.setTimeout(90_000);

const purchases = async (user: TestUser) => (await userItems(user.sub, 'LEDGER#')).filter((l) => l.reason === 'purchase');
const balance = async (user: TestUser) => ((await (await api(user, '/api/me')).json()) as { credits: number }).credits;
const outcome = async (orderId: string) => (await fetch(`${stackUrl()}/api/payment-outcome?order=${orderId}`)).json() as Promise<Record<string, unknown>>;
const paypalAway = (orderId: string, on: boolean) => simulatorAction('/simulator/outage', { on: String(on), order: orderId });

async function reconcileOrders(): Promise<void> {
  const res = await fetch(`${stackUrl()}/_dev/background/run/reconcileOrders`, { method: 'POST' });
  if (res.status !== 200) throw new Error(`reconcileOrders: ${res.status}`);
}

describe('orders reconciled like jobs', () => {
  it('a return that cannot reach PayPal says pending, and the reconciler captures and credits once when PayPal is back', async () => {
    const user = await createUser();
    const before = await balance(user);
    const { paymentUrl, orderId } = await startPayment(user, PACK_72, '/generator');
    await paypalAway(orderId, true);
    try {
      const back = await decideAtPaypal(paymentUrl, 'approve');
      const redirect = await visit(back);
      expect(appPath(redirect.location)).toEqual({ path: '/generator', params: { payment: 'pending', order: orderId } });
      // What the page shows: pending, not "We could not confirm this payment, so no credits were added."
      expect(await outcome(orderId)).toEqual({ outcome: 'pending' });
      await reconcileOrders();
      expect(await outcome(orderId)).toEqual({ outcome: 'pending' });
      expect(await balance(user)).toBe(before);
    } finally {
      await paypalAway(orderId, false);
    }

    await reconcileOrders();
    expect(await outcome(orderId)).toMatchObject({ outcome: 'success', credits: PACK_72.credits });
    expect(await balance(user)).toBe(before + PACK_72.credits);
    expect(await orderItem(orderId)).toMatchObject({ status: 'captured' });
    expect((await orderItem(orderId))?.gsi1pk).toBeUndefined();

    // PayPal's held webhooks, the reconciler again, the buyer's return again: nothing more.
    await reconcileOrders();
    await visit(`/api/paypal/return?token=${orderId}`);
    await new Promise((r) => setTimeout(r, 1_500));
    expect(await balance(user)).toBe(before + PACK_72.credits);
    expect((await purchases(user)).filter((l) => l.ref === orderId)).toHaveLength(1);
  });

  it('an approved order whose buyer never came back and whose webhooks never arrived is captured by the reconciler', async () => {
    const user = await createUser();
    const before = await balance(user);
    const { paymentUrl, orderId } = await startPayment(user);
    await paypalAway(orderId, true);
    await decideAtPaypal(paymentUrl, 'approve');
    // The buyer closes the tab; CHECKOUT.ORDER.APPROVED is held while PayPal is away.
    await new Promise((r) => setTimeout(r, 500));
    expect(await handledEvents(orderId)).toHaveLength(0);
    expect(await orderItem(orderId)).toMatchObject({ status: 'created', gsi1pk: 'OPEN_ORDER' });
    await paypalAway(orderId, false);

    await reconcileOrders();
    expect(await balance(user)).toBe(before + PACK_72.credits);
    expect(await orderItem(orderId)).toMatchObject({ status: 'captured' });
    expect((await purchases(user)).filter((l) => l.ref === orderId)).toHaveLength(1);
  });

  it('an order not approved stays open and uncredited, and is not failed by the reconciler', async () => {
    const user = await createUser();
    const before = await balance(user);
    const { orderId } = await startPayment(user);
    await reconcileOrders();
    expect(await orderItem(orderId)).toMatchObject({ status: 'created', gsi1pk: 'OPEN_ORDER' });
    expect(await balance(user)).toBe(before);
    expect(await outcome(orderId)).toEqual({ outcome: 'error' });
  });
});
