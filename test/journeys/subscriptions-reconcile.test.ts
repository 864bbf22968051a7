/**
 * Plans are reconciled like orders, on the embedded stack: every PayPal webhook about a subscription and its sales is
 * lost (the simulator's `POST /simulator/webhooks/lost`: recorded, never delivered) and the buyer never comes back from
 * PayPal's approval page; the plans' reconciler (`POST /_dev/background/run/reconcileSubscriptions`, as its schedule
 * runs it) finds the plan active, grants its first month and a later month once each, however often it runs, and takes
 * a refunded month back once. In the serial group (jest.config.js): the reconciler reads every plan of the stack.
 */
import { PLANS } from '../../contract/plans';
import { userItems } from '../support/generation';
import { checkInvariants } from '../support/invariants';
import { paypalApi, scanItems, simulatorAction } from '../support/payments';
import { atPaypal, decideSubscription, startSubscription, subscriptionOf } from '../support/subscriptions';
import { createAccount, stackUrl, WELCOME_CREDITS, type TestUser } from '../support/users';

jest.setTimeout(90_000);

const STARTER = PLANS[0]!;

const ledger = async (user: TestUser) => (await userItems(user.sub, 'LEDGER#')).map((l) => [l.reason, l.delta, l.plan ?? 0] as [string, number, number]);
const lost = (about: string, on: boolean) => simulatorAction('/simulator/webhooks/lost', { on: String(on), about });
const handled = async (ids: string[]) => (await scanItems('begins_with(pk, :p)', { ':p': 'WEBHOOK#paypal:' })).filter((e) => ids.includes(String(e.orderId ?? '')));

async function reconcilePlans(): Promise<void> {
  const res = await fetch(`${stackUrl()}/_dev/background/run/reconcileSubscriptions`, { method: 'POST' });
  if (res.status !== 200) throw new Error(`reconcileSubscriptions: ${res.status}`);
}

describe('plans reconciled like orders', () => {
  it('webhooks lost and no return: the reconciler activates the plan and grants each paid month once, and takes a refunded one back once', async () => {
    const user = await createAccount();
    const approvalUrl = await startSubscription(user, STARTER.id);
    const { id } = await subscriptionOf(user);
    expect((await scanItems('pk = :pk', { ':pk': `SUBSCRIPTION#${id}` }))[0]).toMatchObject({ gsi1pk: 'PLAN_WATCH', owner: user.sub });
    await lost(id!, true);
    try {
      // The buyer approves at PayPal (the first month is billed) and closes the tab: the return is never visited, and
      // no page of ours asks GET /api/subscription (which would read the pending plan at PayPal).
      await decideSubscription(approvalUrl, 'approve');
      expect((await userItems(user.sub, 'SUBSCRIPTION'))[0]).toMatchObject({ subscriptionId: id, status: 'pending' });
      expect(await ledger(user)).toEqual([['welcome', WELCOME_CREDITS, 0]]);

      await reconcilePlans();
      expect(await subscriptionOf(user)).toMatchObject({ id, status: 'active', planCredits: STARTER.credits, packCredits: WELCOME_CREDITS });
      await reconcilePlans();
      expect(await ledger(user)).toEqual([
        ['welcome', WELCOME_CREDITS, 0],
        ['plan', STARTER.credits, STARTER.credits],
      ]);

      // A month later (now, at the simulator): its PAYMENT.SALE.COMPLETED is lost too.
      const billed = await atPaypal(id!, 'bill', 'completed');
      expect(billed.status).toBe(200);
      const saleId = String(billed.body.sale.id);
      await reconcilePlans();
      await reconcilePlans();
      expect(await subscriptionOf(user)).toMatchObject({ status: 'active', planCredits: 2 * STARTER.credits });
      expect((await ledger(user)).filter(([r]) => r === 'plan')).toHaveLength(2);

      // Support refunds that month at PayPal; PAYMENT.SALE.REFUNDED is lost: the reconciler takes it back, once.
      await simulatorAction(`/simulator/sales/${saleId}/refund`);
      await reconcilePlans();
      await reconcilePlans();
      expect(await subscriptionOf(user)).toMatchObject({ planCredits: STARTER.credits, packCredits: WELCOME_CREDITS });
      expect(await ledger(user)).toEqual([
        ['welcome', WELCOME_CREDITS, 0],
        ['plan', STARTER.credits, STARTER.credits],
        ['plan', STARTER.credits, STARTER.credits],
        ['purchase-refund', -STARTER.credits, -STARTER.credits],
      ]);
      const sales = (await paypalApi('GET', `/v1/billing/subscriptions/${id}/transactions?start_time=2020-01-01T00:00:00Z&end_time=2100-01-01T00:00:00Z`)).body.transactions as Array<{ id: string; status: string }>;
      expect(sales.map((s) => s.status).sort()).toEqual(['COMPLETED', 'REFUNDED']);
      // No sale's event reached our API: the reconciler did all of it.
      expect(await handled(sales.map((s) => s.id))).toEqual([]);
    } finally {
      await lost(id!, false);
    }
    expect((await checkInvariants({ owners: [user.sub] })).problems).toEqual([]);
  });
});
