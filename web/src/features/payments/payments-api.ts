import type { ListPaymentsResponse } from '../../../../contract/payments';
import { api } from '../../lib/api-client';

/** How many orders and ledger rows one page holds (of each). */
export const PAYMENTS_PAGE_SIZE = 20;

/** GET /api/payments: one page of the caller's orders and credit ledger, newest first; pass nextCursor for the next. */
export function fetchPayments(cursor?: string, signal?: AbortSignal): Promise<ListPaymentsResponse> {
  return api.listPayments({ query: { limit: PAYMENTS_PAGE_SIZE, cursor }, signal });
}
