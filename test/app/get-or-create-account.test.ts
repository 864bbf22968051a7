import { Messages } from '../../contract/errors';
import { getOrCreateAccount } from '../../lambdas/app/get-or-create-account';
import type { Account, AccountStore } from '../../lambdas/ports/accounts';
import { testClock } from '../support/fakes/clock';
import { expectBooksBalanced, MemoryCredits } from '../support/fakes/credits';

/** An in-memory AccountStore with the same create-once semantics as the DynamoDB one. */
function memoryStore(): AccountStore & { rows: Map<string, Account>; deleted: Set<string> } {
  const rows = new Map<string, Account>();
  const deleted = new Set<string>();
  return {
    rows,
    deleted,
    get: async (sub) => rows.get(sub),
    balance: async (sub) => rows.get(sub)?.credits ?? 0,
    isDeleted: async (sub) => deleted.has(sub),
    createWithWelcome: async (a) => {
      if (deleted.has(a.sub)) return 'deleted';
      if (rows.has(a.sub)) return 'exists';
      rows.set(a.sub, a);
      return 'created';
    },
  };
}

const caller = { sub: 's1', email: 'a@example.com', firstName: 'A', lastName: 'B' };

describe('getOrCreateAccount', () => {
  it('gives a new caller 10 credits once, and returns the stored account afterwards', async () => {
    const accounts = memoryStore();
    const first = await getOrCreateAccount({ accounts, now: () => new Date('2026-01-01T00:00:00Z') }, caller);
    expect(first).toMatchObject({ credits: 10, createdAt: '2026-01-01T00:00:00.000Z' });
    accounts.rows.set('s1', { ...first, credits: 3 });
    const later = await getOrCreateAccount({ accounts, now: () => new Date() }, caller);
    expect(later.credits).toBe(3);
  });

  it('returns the winner of a lost creation race', async () => {
    const winner: Account = { ...caller, createdAt: '2020-01-01T00:00:00.000Z', credits: 10 };
    let reads = 0;
    const accounts: AccountStore = {
      get: async () => (reads++ === 0 ? undefined : winner),
      createWithWelcome: async () => 'exists',
      balance: async () => 0,
      isDeleted: async () => false,
    };
    expect(await getOrCreateAccount({ accounts, now: () => new Date() }, caller)).toBe(winner);
  });

  it('refuses with 401 and makes nothing when the account was deleted (its tombstone is there)', async () => {
    const accounts = memoryStore();
    accounts.deleted.add('s1');
    await expect(getOrCreateAccount({ accounts, now: () => new Date() }, caller)).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
      message: Messages.accountDeleted,
    });
    expect(accounts.rows.size).toBe(0);
  });

  it('with the shared credits: the welcome is one ledger row; racing first calls make one; a returning address gets none', async () => {
    const credits = new MemoryCredits();
    const deps = { accounts: credits, now: testClock().now };
    const accounts = await Promise.all(Array.from({ length: 5 }, () => getOrCreateAccount(deps, caller)));
    expect(accounts.map((a) => a.credits)).toEqual([10, 10, 10, 10, 10]);
    expect(credits.rowsOf('s1').map((l) => [l.reason, l.delta])).toEqual([['welcome', 10]]);
    // The same mailbox, any letter case, under a new sub (the account deleted and made again): no second welcome.
    const again = await getOrCreateAccount(deps, { ...caller, sub: 's2', email: 'A@Example.com' });
    expect(again.credits).toBe(0);
    expect(credits.rowsOf('s2')).toEqual([]);
    expectBooksBalanced(credits);
  });
});
