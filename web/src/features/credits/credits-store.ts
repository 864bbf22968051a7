/**
 * The signed-in user's credit balance, shared by the nav, the generators, My Account and payments.
 *
 * Stable interface (import from '../credits'):
 * - `useCredits((s) => s.credits)`: a number, or undefined while unknown (show 'Loading...').
 * - `refresh()`: GET /api/me; the first call for a user also creates the account with its 10 welcome
 *   credits. Concurrent calls share one request. On failure `error` is 'Failed to load credits'.
 * - `setCredits(n)`: a balance the server just returned (e.g. `credits` from POST /api/generate-image,
 *   `value` from GET /api/check-status). The client never computes a balance itself.
 * - `reset()`: back to unknown (the session calls it on sign-out).
 * - the push channel (features/live) sets every balance the server pushes, in every open tab.
 */
import { create } from 'zustand';
import type { MeResponse } from '../../../../contract/schemas';
import { api } from '../../lib/api-client';
import { liveChannel } from '../live';

export const CREDITS_LOAD_ERROR = 'Failed to load credits';

export interface CreditsState {
  credits: number | undefined;
  error: string | undefined;
  refresh: () => Promise<void>;
  setCredits: (credits: number) => void;
  reset: () => void;
}

let inflight: Promise<void> | undefined;
/** Bumped on reset, so an answer for a previous user is dropped. */
let generation = 0;

function isBalance(value: unknown): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= 0;
}

export const useCredits = create<CreditsState>()((set) => ({
  credits: undefined,
  error: undefined,
  refresh: () => {
    if (inflight) return inflight;
    const mine = generation;
    const request: Promise<void> = (async () => {
      try {
        const me: Partial<MeResponse> | undefined = await api.me();
        if (mine !== generation) return;
        if (!isBalance(me?.credits)) throw new Error('GET /api/me returned no credit balance');
        set({ credits: me.credits, error: undefined });
      } catch {
        if (mine === generation) set({ error: CREDITS_LOAD_ERROR });
      }
    })().finally(() => {
      if (inflight === request) inflight = undefined;
    });
    inflight = request;
    return request;
  },
  setCredits: (credits) => {
    if (isBalance(credits)) set({ credits, error: undefined });
  },
  reset: () => {
    generation += 1;
    inflight = undefined;
    set({ credits: undefined, error: undefined });
  },
}));

// Pushed balances (a purchase, a charge or a refund in any tab or on the server) replace the shown one; after the
// channel was down, the balance is read again in case a change was missed meanwhile.
liveChannel.onMessage((m) => {
  if (m.type === 'balance') useCredits.getState().setCredits(m.credits);
});
liveChannel.onState((now, before) => {
  if (now === 'open' && before === 'down') void useCredits.getState().refresh();
});
