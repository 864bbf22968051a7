/**
 * No one billed without an account (issue 36): deleting an account cancels its plan at PayPal before anything is
 * erased; while PayPal cannot be reached the answer is 503 and nothing is erased; a payment that still arrives for the
 * deleted account (or a pending subscription approved after it) is refunded at PayPal and kept as an anonymised record.
 * In-memory ports (test/support/fakes/subscriptions.ts).
 */
import { ErrorCode, Messages } from '../../contract/errors';
import { PLANS } from '../../contract/plans';
import { applyPaymentWebhook } from '../../lambdas/app/apply-payment-webhook';
import { deleteAccount } from '../../lambdas/app/delete-account';
import { subscribe } from '../../lambdas/app/subscribe';
import { AppError } from '../../lambdas/domain/errors';
import type { AccountData } from '../../lambdas/ports/account-data';
import type { ProviderSale } from '../../lambdas/ports/subscriptions';
import { caught } from '../support/caught';
import { BUYER, paypalDelivery } from '../support/fakes/payments';
import { subscribed, subscriptionsSetup, type SubscriptionsContext } from '../support/fakes/subscriptions';

const STARTER = PLANS[0]!;

const saleCompleted = (id: string, subscriptionId: string, sale: Pick<ProviderSale, 'id' | 'amount' | 'time'>) =>
  paypalDelivery({
    id,
    event_type: 'PAYMENT.SALE.COMPLETED',
    resource: { id: sale.id, state: 'completed', amount: { total: sale.amount.value, currency: sale.amount.currency }, billing_agreement_id: subscriptionId, create_time: sale.time },
  });

/** The account data port over the credits fake: erasing removes the account, its plan record and its ledger. */
function setup() {
  const ctx = subscriptionsSetup();
  const data: AccountData = {
    collect: async (sub) => ({ userItems: ctx.credits.accounts.has(sub) ? ['ACCOUNT'] : [], jobIds: [], orderIds: [], shareTokens: [], connectionIds: [] }),
    countOpenJobs: async () => 0,
    markDeleting: async (sub) => {
      ctx.credits.accounts.get(sub)!.deleting = true;
      return true;
    },
    erase: async (sub) => {
      ctx.credits.accounts.delete(sub);
      ctx.credits.tombstones.add(sub);
      ctx.subscriptions.mine.delete(sub);
    },
  };
  const removedUsers: string[] = [];
  const deps = {
    ...ctx.deps,
    data,
    store: { removeAll: async () => undefined } as never,
    users: { deleteUser: async (u: string) => void removedUsers.push(u) },
  };
  const me = { sub: BUYER.sub, username: 'buyer', authTime: Math.floor(ctx.clock.now().getTime() / 1000) - 60 };
  return { ctx, deps, me, removedUsers };
}

const statusAtPaypal = (ctx: SubscriptionsContext, id: string) => ctx.subscriptionPaypal.subscriptions.get(id)!.status;

describe('deleteAccount with a plan', () => {
  it('cancels the plan at PayPal before erasing anything', async () => {
    const { ctx, deps, me, removedUsers } = setup();
    const { id } = await subscribed(ctx, STARTER.id);
    await deleteAccount(deps, me);
    expect(statusAtPaypal(ctx, id)).toBe('CANCELLED');
    expect(ctx.subscriptionPaypal.cancelled).toEqual([{ id, reason: 'The account was deleted' }]);
    expect(ctx.credits.accounts.has(BUYER.sub)).toBe(false);
    expect(removedUsers).toEqual(['buyer']);
  });

  it('answers 503 and erases nothing while PayPal cannot be reached; the next attempt deletes', async () => {
    const { ctx, deps, me, removedUsers } = setup();
    const { id } = await subscribed(ctx, STARTER.id);
    ctx.subscriptionPaypal.down = true;
    const err = await caught(deleteAccount(deps, me));
    expect(err).toBeInstanceOf(AppError);
    expect((err as AppError).code).toBe(ErrorCode.Unavailable);
    expect(err.message).toBe(Messages.deletePlanUnavailable);
    expect(ctx.credits.accounts.get(BUYER.sub)).toMatchObject({ credits: 10 + STARTER.credits });
    expect(ctx.credits.accounts.get(BUYER.sub)!.deleting).toBeFalsy();
    expect(await ctx.subscriptions.get(BUYER.sub)).toMatchObject({ id, status: 'active' });
    expect(removedUsers).toEqual([]);
    expect(statusAtPaypal(ctx, id)).toBe('ACTIVE');

    ctx.subscriptionPaypal.down = false;
    await deleteAccount(deps, me);
    expect(statusAtPaypal(ctx, id)).toBe('CANCELLED');
    expect(removedUsers).toEqual(['buyer']);
  });

  it('a sale that still arrives for the deleted account is refunded at PayPal and kept without the person', async () => {
    const { ctx, deps, me } = setup();
    const { id } = await subscribed(ctx, STARTER.id);
    // PayPal billed the month just before our cancel landed; its event comes after the deletion.
    const late = ctx.subscriptionPaypal.bill(id, 'completed')!;
    await deleteAccount(deps, me);
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-LATE', id, late))).toEqual({ handled: 'refunded', eventType: 'PAYMENT.SALE.COMPLETED' });
    expect(ctx.subscriptionPaypal.sales.find((s) => s.id === late.id)!.status).toBe('REFUNDED');
    const record = await ctx.subscriptions.refusedSale(late.id);
    expect(record).toEqual({
      saleId: late.id,
      subscriptionId: id,
      amount: late.amount,
      saleTime: late.time,
      reason: 'account-deleted',
      outcome: 'refunded',
      refundId: expect.any(String),
      recordedAt: expect.any(String),
      refundedAt: expect.any(String),
    });
    // Nothing of the account came back; a redelivery refunds nothing twice.
    expect(ctx.credits.accounts.has(BUYER.sub)).toBe(false);
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-LATE-2', id, late))).toMatchObject({ handled: 'refunded' });
    // The first month, granted and used before the deletion, is not refunded (its redelivered event changes nothing).
    const first = ctx.subscriptionPaypal.sales[0]!;
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-FIRST', id, first))).toMatchObject({ handled: 'already-granted' });
    expect([...ctx.subscriptionPaypal.refunds.values()].map((r) => r.saleId)).toEqual([late.id]);
  });

  it('a subscription still pending at the deletion and approved after is cancelled and refunded when it activates', async () => {
    const { ctx, deps, me } = setup();
    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id });
    const id = (await ctx.subscriptions.get(BUYER.sub))!.id;
    await deleteAccount(deps, me);
    const sale = ctx.subscriptionPaypal.approve(id);
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-P', id, sale))).toMatchObject({ handled: 'refunded' });
    expect(statusAtPaypal(ctx, id)).toBe('CANCELLED');
    expect(ctx.subscriptionPaypal.sales.find((s) => s.id === sale.id)!.status).toBe('REFUNDED');
    expect(await ctx.subscriptions.refusedSale(sale.id)).toMatchObject({ reason: 'account-deleted', outcome: 'refunded' });
  });

  it('a plan approved a moment before the deletion, still pending in our table, is cancelled at PayPal by the deletion (money simulation, seed 6)', async () => {
    const { ctx, deps, me, removedUsers } = setup();
    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id });
    const id = (await ctx.subscriptions.get(BUYER.sub))!.id;
    const sale = ctx.subscriptionPaypal.approve(id);
    expect(await ctx.subscriptions.get(BUYER.sub)).toMatchObject({ id, status: 'pending' });
    await deleteAccount(deps, me);
    expect(statusAtPaypal(ctx, id)).toBe('CANCELLED');
    expect(ctx.subscriptionPaypal.cancelled).toEqual([{ id, reason: 'The account was deleted' }]);
    expect(removedUsers).toEqual(['buyer']);
    // Its first payment, heard of after the deletion, is refunded in full.
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-P', id, sale))).toMatchObject({ handled: 'refunded' });
    expect(ctx.subscriptionPaypal.sales.find((s) => s.id === sale.id)!.status).toBe('REFUNDED');
  });

  it('a pending plan does not hold the deletion while PayPal cannot be reached: approved later, it is refused then', async () => {
    const { ctx, deps, me, removedUsers } = setup();
    await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id });
    const id = (await ctx.subscriptions.get(BUYER.sub))!.id;
    ctx.subscriptionPaypal.down = true;
    await deleteAccount(deps, me);
    expect(removedUsers).toEqual(['buyer']);
    ctx.subscriptionPaypal.down = false;
    const sale = ctx.subscriptionPaypal.approve(id);
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-P', id, sale))).toMatchObject({ handled: 'refunded' });
    expect(statusAtPaypal(ctx, id)).toBe('CANCELLED');
  });
});
