/**
 * The signed-in user's credit balance, shared by the nav, the generators, My Account and payments: one TanStack
 * query (`balanceQuery`, GET /api/me) in the app's query client.
 *
 * Stable interface (import from '../credits'):
 * - `useCredits()`: `{ credits, error, refresh }`; credits is undefined while unknown (show 'Loading...'), error is
 *   'Failed to load credits' when the last read failed. The hook only reads: the session loads the balance at
 *   sign-in, a page that needs it calls `refresh()`, and pushes keep it current.
 * - `refreshCredits()`: GET /api/me; the first call for a user also creates the account with its 10 welcome
 *   credits. Concurrent calls share one request.
 * - `setCredits(n)`: a balance the server just returned (POST /api/generate-image's `credits`, check-status's
 *   `value`, a push). The client never computes a balance itself.
 * - `resetCredits()`: back to unknown, dropping an answer still on its way (the session calls it on sign-out).
 * - the push channel sets every balance the server pushes, in every open tab, and reads it again when the channel is
 *   back after a drop (app/live-handlers.ts, with `setCredits` and `refreshCredits`).
 */
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { MeResponse } from '../../../../contract/schemas';
import { api } from '../../lib/api-client';
import { queryClient } from '../../lib/query-client';

export const CREDITS_LOAD_ERROR = 'Failed to load credits';

export interface CreditsState {
  credits: number | undefined;
  error: string | undefined;
}

function isBalance(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

export const balanceQuery = queryOptions({
  queryKey: ['account', 'balance'] as const,
  queryFn: async (): Promise<number> => {
    const me: Partial<MeResponse> | undefined = await api.me();
    if (!isBalance(me?.credits)) throw new Error('GET /api/me returned no credit balance');
    return me.credits;
  },
});

export function refreshCredits(): Promise<void> {
  // staleTime 0: always asks; a read already on its way is shared, not repeated.
  return queryClient.fetchQuery({ ...balanceQuery, staleTime: 0 }).then(
    () => undefined,
    () => undefined, // the query's error state says 'Failed to load credits'
  );
}

export function setCredits(credits: number): void {
  if (isBalance(credits)) queryClient.setQueryData(balanceQuery.queryKey, credits);
}

export function resetCredits(): void {
  queryClient.removeQueries({ queryKey: balanceQuery.queryKey, exact: true });
}

/** The balance as it stands, outside React. */
export function readCredits(): CreditsState {
  const state = queryClient.getQueryState(balanceQuery.queryKey);
  return { credits: state?.data, error: state?.status === 'error' ? CREDITS_LOAD_ERROR : undefined };
}

export function useCredits(): CreditsState & { refresh: () => Promise<void> } {
  // enabled: false: reading the balance never sends a request by itself (see the interface above).
  const query = useQuery({ ...balanceQuery, enabled: false }, queryClient);
  return { credits: query.data, error: query.status === 'error' ? CREDITS_LOAD_ERROR : undefined, refresh: refreshCredits };
}
