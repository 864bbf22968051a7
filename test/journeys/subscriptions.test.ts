/**
 * Plans through PayPal Subscriptions, end to end on the embedded stack: subscribe through PayPal's approval page and
 * the return, grants on each completed billing payment (once, whatever arrives first), the rollover cap, a failed
 * payment then suspension then recovery, cancel from My Account and from PayPal, change of plan, a refunded billing
 * payment taken back, and a year of months.
 */
import { Messages } from '../../contract/errors';
import { PLANS, planCreditsAfterGrant } from '../../contract/plans';
import { userItems } from '../support/generation';
import { checkInvariants } from '../support/invariants';
import { paypalApi, visit, waitUntil } from '../support/payments';
import { atPaypal, creditsBecome, decideSubscription, handledAbout, subscribe, subscriptionOf } from '../support/subscriptions';
import { api, createAccount, mailFor, stackEnv, stackUrl, WELCOME_CREDITS, type TestUser } from '../support/users';

const STARTER = PLANS[0]!;
const CREATOR = PLANS[1]!;

const ledger = async (user: TestUser) => (await userItems(user.sub, 'LEDGER#')).map((l) => [l.reason, l.delta, l.plan ?? 0] as [string, number, number]);
const salesOf = async (id: string) => (await paypalApi('GET', `/v1/billing/subscriptions/${id}/transactions?start_time=2020-01-01T00:00:00Z&end_time=2100-01-01T00:00:00Z`)).body.transactions as Array<{ id: string }>;

/**
 * Waits until our API has handled PayPal's PAYMENT.SALE.COMPLETED for each of the subscription's sales. A burst of
 * billing (a year of months) gets its deliveries a longer deadline than one event's: they queue on a shared machine.
 */
async function allSalesHandled(id: string, timeoutMs?: number) {
  const sales = (await salesOf(id)).map((s) => s.id);
  await waitUntil('the sale webhooks', async () => {
    const seen = new Set((await handledAbout(sales)).filter((e) => e.eventType === 'PAYMENT.SALE.COMPLETED').map((e) => String(e.orderId)));
    return sales.every((s) => seen.has(s));
  }, timeoutMs);
  return sales;
}

describe('plans', () => {
  it('GET /api/plans lists the contract plans, public', async () => {
    const res = await fetch(`${stackUrl()}/api/plans`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ plans: PLANS.map((p) => ({ id: p.id, name: p.name, price: p.price, currency: 'USD', credits: p.credits })) });
  });

  it('subscribing needs a plan of ours; the answer says which', async () => {
    const user = await createAccount();
    const res = await api(user, '/api/subscriptions', { method: 'POST', body: JSON.stringify({ withdrawalConsent: true, planId: 'plan-free' }) });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: string }).error).toBe(Messages.invalidPlan);
    expect(await subscriptionOf(user)).toEqual({ status: 'none', planCredits: 0, packCredits: WELCOME_CREDITS });
  });

  it('subscribe: PayPal approval, back to the page, the plan active, its first payment granted once with a receipt', async () => {
    const user = await createAccount();
    const { id, landed, plan } = await subscribe(user, STARTER.id, '/pricing');
    expect(landed).toBe('/pricing?subscription=returned');
    // The page, signed in, asks for the plan: read at PayPal, it is active with its first month.
    expect(plan).toMatchObject({ id, status: 'active' });
    const s = await subscriptionOf(user);
    expect(s).toMatchObject({ id, planId: STARTER.id, status: 'active', planCredits: STARTER.credits, packCredits: WELCOME_CREDITS });
    expect(Date.parse(s.nextBillingAt!)).toBeGreaterThan(Date.now() + 27 * 24 * 3600 * 1000);
    // Granted once between the page's read and PayPal's webhook (and three redeliveries).
    const [sale] = await allSalesHandled(id);
    const [event] = (await handledAbout([sale!])).filter((e) => e.eventType === 'PAYMENT.SALE.COMPLETED');
    const eventId = String(event!.pk).slice('WEBHOOK#paypal:'.length);
    await Promise.all([1, 2, 3].map(() => paypalApi('POST', `/v1/notifications/webhooks-events/${eventId}/resend`)));
    await waitUntil('the redeliveries', async () => ((await handledAbout([sale!])).find((e) => e.eventType === 'PAYMENT.SALE.COMPLETED')?.redeliveries ?? 0) >= 3);
    expect(await ledger(user)).toEqual([
      ['welcome', WELCOME_CREDITS, 0],
      ['plan', STARTER.credits, STARTER.credits],
    ]);
    const mails = await waitUntil('the receipt', async () => {
      const m = (await mailFor(user.email)).filter((x) => /receipt/.test(x.subject));
      return m.length ? m : undefined;
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain(sale!);
    // My Payments lists the billing payment.
    const payments = (await (await api(user, '/api/payments')).json()) as { orders: Array<Record<string, unknown>> };
    expect(payments.orders).toEqual([expect.objectContaining({ id: sale, packId: STARTER.id, credits: STARTER.credits, amount: STARTER.price, status: 'captured' })]);
    // One plan at a time.
    const again = await api(user, '/api/subscriptions', { method: 'POST', body: JSON.stringify({ withdrawalConsent: true, planId: CREATOR.id }) });
    expect(again.status).toBe(409);
  });

  it('cancelled on PayPal before approving: back to the page, the plan still pending, nothing granted', async () => {
    const user = await createAccount();
    const res = await api(user, '/api/subscriptions', { method: 'POST', body: JSON.stringify({ withdrawalConsent: true, planId: STARTER.id, returnPath: '/admin' }) });
    const { approvalUrl } = (await res.json()) as { approvalUrl: string };
    const back = await visit(await decideSubscription(approvalUrl, 'cancel'));
    expect(back.location).toBe('/admin?subscription=returned');
    expect(await subscriptionOf(user)).toMatchObject({ status: 'pending', planCredits: 0, packCredits: WELCOME_CREDITS });
  });

  it('renewals: unused plan credits roll over at most one month; the ledger shows what expired', async () => {
    const user = await createAccount();
    const { id } = await subscribe(user, STARTER.id);
    for (let i = 0; i < 3; i++) expect((await atPaypal(id, 'bill', 'completed')).status).toBe(200);
    await allSalesHandled(id);
    await creditsBecome(user, WELCOME_CREDITS + 2 * STARTER.credits);
    expect(await subscriptionOf(user)).toMatchObject({ planCredits: 2 * STARTER.credits, packCredits: WELCOME_CREDITS });
    expect(await ledger(user)).toEqual([
      ['welcome', 10, 0],
      ['plan', 120, 120],
      ['plan', 120, 120],
      ['plan-expiry', -120, -120],
      ['plan', 120, 120],
      ['plan-expiry', -120, -120],
      ['plan', 120, 120],
    ]);
    expect((await checkInvariants({ owners: [user.sub] })).problems).toEqual([]);
  });

  it('a failed payment: PayPal retries, suspends at the threshold (no grants, the user told how to fix it), and a paid balance resumes', async () => {
    const user = await createAccount();
    const { id } = await subscribe(user, STARTER.id);
    await allSalesHandled(id);
    expect((await atPaypal(id, 'bill', 'failed')).status).toBe(200);
    const retrying = await waitUntil('the failure to show', async () => {
      const s = await subscriptionOf(user);
      return s.problem ? s : undefined;
    });
    expect(retrying).toMatchObject({ status: 'active' });
    expect(retrying.problem).toMatch(/try again on \d{4}-\d{2}-\d{2}/);
    await atPaypal(id, 'bill', 'failed');
    await atPaypal(id, 'bill', 'failed');
    const suspended = await waitUntil('the suspension', async () => {
      const s = await subscriptionOf(user);
      return s.status === 'suspended' ? s : undefined;
    });
    expect(suspended.problem).toBe(Messages.subscriptionSuspended);
    expect(suspended.nextBillingAt).toBeUndefined();
    // PayPal bills nothing while suspended.
    expect((await atPaypal(id, 'bill', 'completed')).status).toBe(422);
    expect(await subscriptionOf(user)).toMatchObject({ planCredits: STARTER.credits });
    // The buyer fixes their funding: PayPal collects the three months owed and the plan is active again.
    expect((await atPaypal(id, 'reactivate')).status).toBe(200);
    await waitUntil('the recovery', async () => (await subscriptionOf(user)).status === 'active');
    await allSalesHandled(id);
    await creditsBecome(user, WELCOME_CREDITS + STARTER.credits + 3 * STARTER.credits);
    const s = await subscriptionOf(user);
    expect(s).toMatchObject({ status: 'active', planCredits: 4 * STARTER.credits });
    expect(s.problem).toBeUndefined();
  });

  it('cancel from My Account: PayPal bills no more; what was granted stays', async () => {
    const user = await createAccount();
    const { id } = await subscribe(user, STARTER.id);
    await allSalesHandled(id);
    const res = await api(user, '/api/subscription/cancel', { method: 'POST' });
    expect(res.status).toBe(200);
    expect(await res.json()).toMatchObject({ id, status: 'cancelled', planCredits: STARTER.credits });
    expect((await paypalApi('GET', `/v1/billing/subscriptions/${id}`)).body.status).toBe('CANCELLED');
    expect((await atPaypal(id, 'bill', 'completed')).status).toBe(422);
    const twice = await api(user, '/api/subscription/cancel', { method: 'POST' });
    expect(twice.status).toBe(409);
    // A new plan can start after a cancelled one.
    const { id: next } = await subscribe(user, CREATOR.id);
    expect(next).not.toBe(id);
    expect(await subscriptionOf(user)).toMatchObject({ id: next, planId: CREATOR.id, status: 'active' });
  });

  it('cancelled at PayPal by the buyer: the webhook shows it', async () => {
    const user = await createAccount();
    const { id } = await subscribe(user, STARTER.id);
    expect((await atPaypal(id, 'cancel')).status).toBe(200);
    await waitUntil('the cancellation', async () => (await subscriptionOf(user)).status === 'cancelled');
  });

  it('change plan: PayPal revise approved by the buyer; the next payment is the new price and grants the new credits', async () => {
    const user = await createAccount();
    const { id } = await subscribe(user, STARTER.id);
    await allSalesHandled(id);
    const res = await api(user, '/api/subscription/change', { method: 'POST', body: JSON.stringify({ withdrawalConsent: true, planId: CREATOR.id }) });
    expect(res.status).toBe(200);
    const { approvalUrl } = (await res.json()) as { approvalUrl: string };
    await visit(await decideSubscription(approvalUrl, 'approve'));
    // PayPal's BILLING.SUBSCRIPTION.UPDATED records it. The month paid is Starter's; Creator is billed from the next
    // cycle (nextPlanId until then).
    const changed = await waitUntil('the change to show', async () => {
      const s = await subscriptionOf(user);
      return s.nextPlanId ? s : undefined;
    });
    expect(changed).toMatchObject({ planId: STARTER.id, nextPlanId: CREATOR.id, status: 'active', planCredits: STARTER.credits });
    const billed = await atPaypal(id, 'bill', 'completed');
    expect(billed.body.sale.amount.total).toBe(CREATOR.price);
    await allSalesHandled(id);
    await creditsBecome(user, WELCOME_CREDITS + STARTER.credits + CREATOR.credits);
    const after = await waitUntil('the plan to be Creator', async () => {
      const s = await subscriptionOf(user);
      return s.planId === CREATOR.id ? s : undefined;
    });
    expect(after.nextPlanId).toBeUndefined();
  });

  it('a refunded billing payment takes its plan credits back through the claw-back', async () => {
    const user = await createAccount();
    const { id } = await subscribe(user, STARTER.id);
    const [sale] = await allSalesHandled(id);
    const r = await fetch(`${stackEnv().PAYPAL_BASE_URL}/simulator/sales/${sale}/refund`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
    expect(r.status).toBe(201);
    await creditsBecome(user, WELCOME_CREDITS);
    expect(await subscriptionOf(user)).toMatchObject({ planCredits: 0, packCredits: WELCOME_CREDITS });
    expect((await ledger(user)).at(-1)).toEqual(['purchase-refund', -STARTER.credits, -STARTER.credits]);
    expect((await checkInvariants({ owners: [user.sub] })).problems).toEqual([]);
  });

  it('a year of monthly cycles ends with exactly the plan and its rollover, and the ledger explains every credit', async () => {
    const user = await createAccount();
    const { id } = await subscribe(user, STARTER.id);
    for (let month = 2; month <= 12; month++) expect((await atPaypal(id, 'bill', 'completed')).status).toBe(200);
    const sales = await allSalesHandled(id, 60_000);
    expect(sales).toHaveLength(12);
    let plan = 0;
    for (let month = 1; month <= 12; month++) plan = planCreditsAfterGrant(plan, STARTER.credits);
    await creditsBecome(user, WELCOME_CREDITS + plan);
    expect(await subscriptionOf(user)).toMatchObject({ planCredits: plan, packCredits: WELCOME_CREDITS });
    const rows = await ledger(user);
    expect(rows.filter(([r]) => r === 'plan')).toHaveLength(12);
    expect(rows.filter(([r]) => r === 'plan-expiry')).toHaveLength(10);
    expect(rows.reduce((sum, [, delta]) => sum + delta, 0)).toBe(WELCOME_CREDITS + plan);
    expect(rows.reduce((sum, [, , p]) => sum + p, 0)).toBe(plan);
    expect((await checkInvariants({ owners: [user.sub] })).problems).toEqual([]);
  }, 120_000);
});
