import { useEffect, useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { createAppRouter } from './router';

export type AppRouter = ReturnType<typeof createAppRouter>;

/**
 * The full app. `router` is passed when hydrating a prerendered page (its routes already loaded); else created here.
 * `onHydrated` runs once the first render is committed (for a prerendered page: once it is hydrated).
 */
export function App({ router: given, onHydrated }: { router?: AppRouter; onHydrated?: () => void }) {
  const [router] = useState(() => given ?? createAppRouter());
  useEffect(() => onHydrated?.(), [onHydrated]);
  return <RouterProvider router={router} />;
}
