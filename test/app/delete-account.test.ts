/**
 * Deleting an account: only with a fresh sign-in, never while a generation runs (a charge racing the deletion is
 * refused once the account is marked), then every item and object of the user goes, the user pool's user last, and
 * the tombstone refuses the account being made again. Each step can run again after a failure half way.
 */
import { DELETED_ACCOUNT_TOMBSTONE_SECONDS } from '../../contract/auth';
import { Messages } from '../../contract/errors';
import { deleteAccount, FRESH_SIGN_IN_SECONDS } from '../../lambdas/app/delete-account';
import { getOrCreateAccount } from '../../lambdas/app/get-or-create-account';
import { startImageGeneration } from '../support/fakes/generation';
import { AppError, Conflict, Unauthorized } from '../../lambdas/domain/errors';
import type { AccountData, UserData, UserDirectory } from '../../lambdas/ports/account-data';
import { isTerminal } from '../../lambdas/ports/jobs';
import { caught } from '../support/caught';
import { CALLER, generationSetup, type GenerationContext } from '../support/fakes/generation';
import { mediaItem } from '../support/fakes/media';

/** The account data port over the generation fakes: what the table holds of a user, found from the user alone. */
function accountData(ctx: GenerationContext): AccountData & { tombstoneTtl?: number } {
  const jobsOf = (sub: string) => [...ctx.jobs.jobs.values()].filter((j) => j.owner === sub).map((j) => j.id);
  const port: AccountData & { tombstoneTtl?: number } = {
    async collect(sub): Promise<UserData> {
      const media = [...ctx.media.items.values()].filter((m) => m.owner === sub);
      return {
        userItems: [...(ctx.credits.accounts.has(sub) ? ['ACCOUNT'] : []), ...ctx.credits.rowsOf(sub).map((l) => `LEDGER#${l.id}`), ...media.map((m) => `MEDIA#${m.id}`)],
        jobIds: jobsOf(sub),
        orderIds: [],
        shareTokens: media.flatMap((m) => (m.shareToken ? [m.shareToken] : [])),
        connectionIds: [],
      };
    },
    async countOpenJobs(ids) {
      return ids.filter((id) => !isTerminal(ctx.jobs.jobs.get(id)!.status)).length;
    },
    async markDeleting(sub) {
      if (ctx.credits.activeJobs(sub) > 0) return false;
      if (!ctx.credits.accounts.has(sub)) ctx.credits.seed(sub, 0);
      ctx.credits.accounts.get(sub)!.deleting = true;
      return true;
    },
    async erase(sub, data, ttl) {
      for (const id of data.jobIds) ctx.jobs.jobs.delete(id);
      for (const token of data.shareTokens) ctx.media.shares.delete(token);
      for (const m of [...ctx.media.items.values()].filter((i) => i.owner === sub)) ctx.media.items.delete(m.id);
      ctx.credits.ledger.splice(0, ctx.credits.ledger.length, ...ctx.credits.ledger.filter((l) => l.owner !== sub));
      ctx.credits.accounts.delete(sub);
      ctx.credits.tombstones.add(sub);
      port.tombstoneTtl = ttl;
    },
  };
  return port;
}

function setup() {
  const ctx = generationSetup({ credits: 5 });
  const data = accountData(ctx);
  const removedUsers: string[] = [];
  const users: UserDirectory = { deleteUser: async (username) => void removedUsers.push(username) };
  // No plan: PayPal is never asked (test/app/delete-account-plan.test.ts has the plans).
  const deps = {
    data,
    store: ctx.store,
    users,
    subscriptions: { get: async () => undefined },
    subscriptionProvider: async () => {
      throw new Error('PayPal is not called for an account without a plan');
    },
    now: ctx.clock.now,
    log: () => undefined,
  };
  const me = { sub: CALLER.sub, username: 'ada', authTime: Math.floor(ctx.clock.now().getTime() / 1000) - 60 };
  return { ctx, data, deps, me, removedUsers };
}

describe('deleteAccount', () => {
  it('removes every item and object of the user, then the user, and the tombstone refuses a new account', async () => {
    const { ctx, data, deps, me, removedUsers } = setup();
    ctx.media.add(mediaItem(CALLER.sub, 'm1'));
    await ctx.store.put(`users/${CALLER.sub}/images/m1.png`, Buffer.from('png'), 'image/png');
    await ctx.store.put('users/someone-else/images/x.png', Buffer.from('png'), 'image/png');
    await ctx.media.share(CALLER.sub, 'm1', { token: 'tok', owner: CALLER.sub, mediaId: 'm1', showPrompt: false, createdAt: '2026-01-01T00:00:00.000Z' });

    await deleteAccount(deps, me);
    expect(await data.collect(CALLER.sub)).toEqual({ userItems: [], jobIds: [], orderIds: [], shareTokens: [], connectionIds: [] });
    expect([...ctx.store.objects.keys()]).toEqual(['users/someone-else/images/x.png']);
    expect(await ctx.media.shareOf('tok')).toBeUndefined();
    expect(removedUsers).toEqual(['ada']);
    expect(data.tombstoneTtl).toBe(Math.floor(ctx.clock.now().getTime() / 1000) + DELETED_ACCOUNT_TOMBSTONE_SECONDS);
    // A token kept from before cannot make the account again.
    expect(await caught(getOrCreateAccount(ctx.deps, CALLER))).toBeInstanceOf(Unauthorized);
    // Run again (a request that failed half way is finished by the next): nothing breaks.
    await deleteAccount(deps, me);
  });

  it('refuses a sign-in older than five minutes (403), deleting nothing', async () => {
    const { ctx, deps, me, removedUsers } = setup();
    const stale = { ...me, authTime: Math.floor(ctx.clock.now().getTime() / 1000) - FRESH_SIGN_IN_SECONDS - 1 };
    const err = await caught(deleteAccount(deps, stale));
    expect([err.constructor, err.message]).toEqual([AppError, Messages.confirmPasswordToDelete]);
    expect(ctx.credits.accounts.has(CALLER.sub)).toBe(true);
    expect(removedUsers).toEqual([]);
  });

  it('refuses while a generation runs; once marked, a generation racing it is refused without a charge', async () => {
    const { ctx, deps, me } = setup();
    const { predictionId: jobId } = await startImageGeneration(ctx.deps, CALLER, { prompt: 'still running' });
    const running = await caught(deleteAccount(deps, me));
    expect([running.constructor, running.message]).toEqual([Conflict, Messages.deleteWhileRunning]);
    expect(await ctx.credits.balance(CALLER.sub)).toBe(4);

    ctx.provider.update(ctx.provider.only().id, { status: 'failed' });
    await ctx.jobs.failAndRefund((await ctx.jobs.get(jobId))!, 'failed', 'x');
    jest.spyOn(deps.data, 'erase').mockRejectedValueOnce(new Error('table down'));
    await expect(deleteAccount(deps, me)).rejects.toThrow('table down');
    // Marked, not erased: no generation can be charged now.
    const late = await caught(startImageGeneration(ctx.deps, CALLER, { prompt: 'too late' }));
    expect(late.message).toBe(Messages.accountDeleted);
    expect(await ctx.credits.balance(CALLER.sub)).toBe(5);
    await deleteAccount(deps, me);
    expect(ctx.credits.accounts.has(CALLER.sub)).toBe(false);
  });
});
