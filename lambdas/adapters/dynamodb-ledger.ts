import type { DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import { LedgerReason } from '../../contract/payments';
import type { LedgerEntry, LedgerHistory } from '../ports/payments';
import { queryPage } from './dynamodb-pages';
import { keys } from '../domain/keys';

const LEDGER_PREFIX = 'LEDGER#';

/** `LEDGER#<createdAt>#<id>`: the id is what follows the timestamp. */
function idOf(sk: string): string {
  const rest = sk.slice(LEDGER_PREFIX.length);
  const hash = rest.indexOf('#');
  return hash >= 0 ? rest.slice(hash + 1) : rest;
}

function toEntry(r: Record<string, unknown>): LedgerEntry | undefined {
  const reason = LedgerReason.safeParse(r.reason);
  if (!reason.success) return undefined;
  return {
    id: idOf(String(r.sk)),
    createdAt: String(r.createdAt),
    reason: reason.data,
    delta: Number(r.delta),
    balance: Number(r.balance),
    ...(r.plan ? { plan: Number(r.plan) } : {}),
    ref: String(r.ref ?? ''),
  };
}

/** The ledger rows every credit change writes (see dynamodb-credits), read back for the owner. */
export function dynamoLedgerHistory(db: DynamoDBDocumentClient, table: string): LedgerHistory {
  return {
    async list(owner, limit, cursor) {
      const page = await queryPage(db, table, keys.user(owner), LEDGER_PREFIX, limit, cursor);
      return { ...page, items: page.items.map(toEntry).filter((e): e is LedgerEntry => e !== undefined) };
    },
  };
}
