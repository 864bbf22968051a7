import { Messages } from '../../contract/errors';
import type { ListPaymentsQuery, ListPaymentsResponse } from '../../contract/payments';
import { InvalidInput } from '../domain/errors';
import type { Page } from '../ports/page';
import type { LedgerEntry, LedgerHistory, Order, OrderStore } from '../ports/payments';
import { shownStatus } from './steps/order-status';

export interface ListPaymentsDeps {
  orders: OrderStore;
  ledger: LedgerHistory;
  now: () => Date;
}

/** Where each list stands: that list's own (opaque) cursor, or null once it has ended. */
interface Position {
  o: string | null;
  l: string | null;
}

function encodeCursor(p: Position): string {
  return Buffer.from(JSON.stringify(p)).toString('base64url');
}

function decodeCursor(cursor: string): Position & { started: true } {
  let p: unknown;
  try {
    p = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
  } catch {
    throw new InvalidInput(Messages.invalidCursor);
  }
  const ok = (v: unknown) => v === null || (typeof v === 'string' && v.length > 0 && v.length < 1400);
  if (typeof p !== 'object' || p === null) throw new InvalidInput(Messages.invalidCursor);
  const { o, l } = p as Record<string, unknown>;
  if (!ok(o) || !ok(l)) throw new InvalidInput(Messages.invalidCursor);
  return { o: o as string | null, l: l as string | null, started: true };
}

/**
 * The caller's orders and credit ledger, newest first. One cursor walks both lists: each page holds up to `limit`
 * of each, and a list that has ended stays empty on later pages.
 */
export async function listPayments(deps: ListPaymentsDeps, owner: string, q: ListPaymentsQuery): Promise<ListPaymentsResponse> {
  const at = q.cursor ? decodeCursor(q.cursor) : { o: null, l: null, started: false };
  // On the first page both lists start at the top; later, a null position means that list has ended.
  const ended = { items: [] };
  const [orders, ledger]: [Page<Order>, Page<LedgerEntry>] = await Promise.all([
    at.started && at.o === null ? ended : deps.orders.list(owner, q.limit, at.o ?? undefined),
    at.started && at.l === null ? ended : deps.ledger.list(owner, q.limit, at.l ?? undefined),
  ]);
  const next: Position = { o: orders.nextCursor ?? null, l: ledger.nextCursor ?? null };
  return {
    orders: orders.items.map((o) => ({
      id: o.id,
      createdAt: o.createdAt,
      packId: o.packId,
      credits: o.credits,
      amount: o.amount,
      currency: o.currency,
      ...shownStatus(o, deps.now()),
      ...(o.capturedAt ? { capturedAt: o.capturedAt } : {}),
      ...(o.captureId ? { captureId: o.captureId } : {}),
      ...(o.refundedCents ? { refundedAmount: (o.refundedCents / 100).toFixed(2), creditsTakenBack: o.creditsTakenBack ?? 0 } : {}),
      ...(o.dispute ? { dispute: o.dispute } : {}),
    })),
    ledger: ledger.items,
    ...(next.o !== null || next.l !== null ? { nextCursor: encodeCursor(next) } : {}),
  };
}
