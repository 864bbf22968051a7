/**
 * The signed-in app's server state (the balance, media pages, job statuses) lives in one TanStack Query client:
 * requests are shared, answers cached per key, and the push channel (features/live) writes pushed states into it
 * (`setQueryData`) or marks what it cannot write as stale (`invalidateQueries`). Every feature's server state goes
 * through this one client, so it lives here beside the API client; only signed-in features import it, never a
 * public page (TanStack Query is kept off their first load).
 */
import { QueryClient } from '@tanstack/react-query';

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        // Pushes keep the cache current; a page that mounts reads what is cached and refetches only when told.
        staleTime: Infinity,
        refetchOnWindowFocus: false,
        // Our fetch errors are answers (ApiError with status 0 for no network): never wait for navigator.onLine.
        networkMode: 'always',
        retry: false,
      },
    },
  });
}

export const queryClient = createQueryClient();
