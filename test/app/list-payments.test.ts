/**
 * My Payments: the orders and the ledger walked with one opaque cursor.
 * Both lists are paged like the adapters page them: an opaque cursor only when more follow.
 */
import { Messages } from '../../contract/errors';
import { listPayments } from '../../lambdas/app/list-payments';
import { caught } from '../support/caught';
import { InvalidInput } from '../../lambdas/domain/errors';
import { type LedgerEntry, type OrderStore, type Order } from '../../lambdas/ports/payments';
import { BUYER } from '../support/fakes/payments';

const OWNER = BUYER.sub;

describe('listPayments', () => {
  const entry = (n: number): LedgerEntry => ({ id: `L${n}`, createdAt: `2026-01-0${n}T00:00:00.000Z`, reason: 'image', delta: -1, balance: n, ref: `job-${n}` });
  const deps = (orderCount: number, ledgerCount: number) => {
    const orders = Array.from({ length: orderCount }, (_, i): Order => ({
      id: `O${i}`, owner: OWNER, packId: 'pack-72', credits: 72, amount: '6.99', currency: 'USD', status: 'created', createdAt: `2026-02-0${i + 1}T00:00:00.000Z`,
    }));
    const ledger = Array.from({ length: ledgerCount }, (_, i) => entry(i + 1));
    // Paged like the adapters: an opaque cursor only when more follow, and a 400 for a cursor they did not make.
    const page = <T>(all: T[], prefix: string, limit: number, cursor?: string) => {
      if (cursor !== undefined && !/^\d+$/.test(cursor.slice(prefix.length))) throw new InvalidInput(Messages.invalidCursor);
      const start = cursor ? Number(cursor.slice(prefix.length)) + 1 : 0;
      const items = all.slice(start, start + limit);
      return { items, ...(start + limit < all.length ? { nextCursor: `${prefix}${start + limit - 1}` } : {}) };
    };
    return {
      orders: { list: async (_o: string, limit: number, after?: string) => page(orders, 'PAYMENT#', limit, after) } as unknown as OrderStore,
      ledger: { list: async (_o: string, limit: number, after?: string) => page(ledger, 'LEDGER#', limit, after) },
      now: () => new Date('2026-02-01T01:00:00.000Z'),
    };
  };

  it('walks both lists with one cursor until both end', async () => {
    const d = deps(1, 3);
    const first = await listPayments(d, OWNER, { limit: 2 });
    expect([first.orders.length, first.ledger.map((l) => l.id)]).toEqual([1, ['L1', 'L2']]);
    const second = await listPayments(d, OWNER, { limit: 2, cursor: first.nextCursor });
    expect([second.orders.length, second.ledger.map((l) => l.id)]).toEqual([0, ['L3']]);
    expect(second.nextCursor).toBeUndefined();
    expect((await listPayments(deps(0, 0), OWNER, { limit: 5 })).nextCursor).toBeUndefined();
  });

  it('refuses cursors it did not make', async () => {
    for (const cursor of ['%%%', 'bm90IGpzb24', Buffer.from('{"o":"USER#x","l":null}').toString('base64url'), Buffer.from('[]').toString('base64url')]) {
      const err = await caught(listPayments(deps(1, 1), OWNER, { limit: 2, cursor }));
      expect(err.message).toBe(Messages.invalidCursor);
    }
  });
});
