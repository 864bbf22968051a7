import { useState } from 'react';
import { RouterProvider } from 'react-router-dom';
import { createAppRouter } from './router';

export type AppRouter = ReturnType<typeof createAppRouter>;

/** The full app. `router` is passed when hydrating a prerendered page (its routes already loaded); else created here. */
export function App({ router: given }: { router?: AppRouter }) {
  const [router] = useState(() => given ?? createAppRouter());
  return <RouterProvider router={router} />;
}
