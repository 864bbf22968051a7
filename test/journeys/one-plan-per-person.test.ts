/**
 * At most one plan bills per person, and no one is billed without an account (issue 36), on the embedded stack with
 * PayPal's simulator: 20 subscribes at once and two of their pages approved (two tabs) leave exactly one subscription
 * ACTIVE at PayPal, the other CANCELLED with its sale refunded and nothing of it granted, and GET and cancel act on the
 * one that bills; deleting an account cancels its plan at PayPal first, answers 503 and erases nothing while PayPal
 * cannot be reached, and a page approved after the deletion is cancelled and refunded, kept without the person.
 */
import { Messages } from '../../contract/errors';
import { PLANS } from '../../contract/plans';
import { paypalApi, scanItems, simulatorAction, visit, waitUntil } from '../support/payments';
import { creditsBecome, decideSubscription, startSubscription, subscribe, subscriptionOf } from '../support/subscriptions';
import { api, createAccount, WELCOME_CREDITS } from '../support/users';

const STARTER = PLANS[0]!;

const atPaypal = async (id: string) => (await paypalApi('GET', `/v1/billing/subscriptions/${id}`)).body as { status: string };
const salesOf = async (id: string) =>
  (await paypalApi('GET', `/v1/billing/subscriptions/${id}/transactions?start_time=2020-01-01T00:00:00Z&end_time=2100-01-01T00:00:00Z`)).body.transactions as Array<{ id: string; status: string }>;

describe('one plan per person', () => {
  it('20 subscribes at once, two pages approved: one ACTIVE at PayPal, the other cancelled and refunded; GET and cancel act on the one that bills', async () => {
    const user = await createAccount();
    const answers = await Promise.allSettled(Array.from({ length: 20 }, () => startSubscription(user, STARTER.id)));
    // Each answers its own approval page (a 409 only once one of them is active, which none is yet).
    expect(answers.filter((a) => a.status === 'rejected')).toEqual([]);
    const pages = answers.flatMap((a) => (a.status === 'fulfilled' ? [a.value] : []));
    expect(new Set(pages).size).toBe(20);
    // Two tabs approved at once; each browser comes back through the return.
    const backs = await Promise.all([decideSubscription(pages[1]!, 'approve'), decideSubscription(pages[pages.length - 1]!, 'approve')]);
    const ids = backs.map((b) => new URL(b).searchParams.get('subscription_id')!);
    await Promise.all(backs.map((b) => visit(b)));

    const [winner, loser] = await waitUntil('one plan active, the other cancelled and refunded', async () => {
      const states = await Promise.all(ids.map(async (id) => ({ id, status: (await atPaypal(id)).status, sales: await salesOf(id) })));
      const active = states.filter((s) => s.status === 'ACTIVE');
      const cancelled = states.filter((s) => s.status === 'CANCELLED' && s.sales.every((x) => x.status === 'REFUNDED'));
      return active.length === 1 && cancelled.length === 1 ? [active[0]!, cancelled[0]!] : undefined;
    });
    expect(winner.sales.map((s) => s.status)).toEqual(['COMPLETED']);
    expect(loser.sales).toHaveLength(1);
    await creditsBecome(user, WELCOME_CREDITS + STARTER.credits);
    const refused = await waitUntil('the refused sale recorded as refunded', async () => {
      const items = await scanItems('pk = :pk', { ':pk': `REFUSED_SALE#${loser.sales[0]!.id}` });
      return items[0]?.outcome === 'refunded' ? items[0] : undefined;
    });
    expect(refused).toMatchObject({ subscriptionId: loser.id, reason: 'second-plan', amount: STARTER.price });
    expect(JSON.stringify(refused)).not.toContain(user.sub);

    expect(await subscriptionOf(user)).toMatchObject({ id: winner.id, status: 'active', planCredits: STARTER.credits });
    const cancel = await api(user, '/api/subscription/cancel', { method: 'POST' });
    expect(cancel.status).toBe(200);
    expect(await cancel.json()).toMatchObject({ id: winner.id, status: 'cancelled' });
    expect((await atPaypal(winner.id)).status).toBe('CANCELLED');
    // Only the plan's month was granted, and nothing was taken back.
    await creditsBecome(user, WELCOME_CREDITS + STARTER.credits);
  }, 180_000);

  it('DELETE /api/me cancels the plan at PayPal; while PayPal cannot be reached it answers 503 and erases nothing', async () => {
    const user = await createAccount();
    const { id } = await subscribe(user, STARTER.id);
    await creditsBecome(user, WELCOME_CREDITS + STARTER.credits);

    await simulatorAction('/simulator/outage', { on: 'true', order: id });
    try {
      const refused = await api(user, '/api/me', { method: 'DELETE' });
      expect(refused.status).toBe(503);
      expect(await refused.json()).toMatchObject({ error: Messages.deletePlanUnavailable });
    } finally {
      await simulatorAction('/simulator/outage', { on: 'false', order: id });
    }
    expect((await atPaypal(id)).status).toBe('ACTIVE');
    expect(await subscriptionOf(user)).toMatchObject({ id, status: 'active' });
    await creditsBecome(user, WELCOME_CREDITS + STARTER.credits);

    const deleted = await api(user, '/api/me', { method: 'DELETE' });
    expect(deleted.status).toBe(204);
    expect((await atPaypal(id)).status).toBe('CANCELLED');
    // The month paid before the deletion was used: not refunded.
    expect((await salesOf(id)).map((s) => s.status)).toEqual(['COMPLETED']);
  }, 180_000);

  it('a page approved after the account was deleted: cancelled at PayPal and its sale refunded, kept without the person', async () => {
    const user = await createAccount();
    const page = await startSubscription(user, STARTER.id);
    expect((await api(user, '/api/me', { method: 'DELETE' })).status).toBe(204);
    const back = await decideSubscription(page, 'approve');
    const id = new URL(back).searchParams.get('subscription_id')!;
    const sale = await waitUntil('cancelled and refunded', async () => {
      const [s, sales] = [await atPaypal(id), await salesOf(id)];
      return s.status === 'CANCELLED' && sales.length === 1 && sales[0]!.status === 'REFUNDED' ? sales[0] : undefined;
    });
    const record = await waitUntil('the refused sale recorded', async () => {
      const items = await scanItems('pk = :pk', { ':pk': `REFUSED_SALE#${sale.id}` });
      return items[0]?.outcome === 'refunded' ? items[0] : undefined;
    });
    expect(record).toMatchObject({ subscriptionId: id, reason: 'account-deleted', amount: STARTER.price, currency: 'USD' });
    expect(JSON.stringify(record)).not.toContain(user.sub);
    expect(JSON.stringify(record)).not.toContain(user.email);
  }, 180_000);
});
