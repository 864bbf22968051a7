import { StrictMode } from 'react';
import type { Root } from 'react-dom/client';
import type { Departure } from '../marketing/marketing-router';
import { loadConfig } from '../lib/config';
import { ensureConfig } from '../lib/config-state';
import { App, type AppRouter } from './app';
import { ConfigErrorPage } from './config-error-page';
import { createAppRouter } from './router';
import { installRouterNavigation } from './router-navigation';

/**
 * The full app's entry: react-router with every route (the marketing pages too), the runtime config
 * validated before the first render. main.tsx starts it for any address that is not a marketing page;
 * the marketing entry hands over to it when a visitor follows a link into the app.
 */
export function startApp(root: Root): void {
  installRouterNavigation();
  loadConfig().then(
    () =>
      root.render(
        <StrictMode>
          <App />
        </StrictMode>,
      ),
    (error: unknown) => root.render(<ConfigErrorPage error={error} />),
  );
}

/**
 * Takes the tab over from the marketing entry without a reload. The router starts on the marketing page
 * still on screen and navigates to `departure.to` like any in-app link; the app replaces the marketing
 * page in `root` once that page is ready, so there is no blank frame or spinner in between.
 */
export async function handOverToApp(root: Root, departure: Departure): Promise<void> {
  installRouterNavigation();
  try {
    await ensureConfig(); // usually read already, while the marketing page was idle
  } catch (error) {
    // Show the failure at the address asked for, so 'Try again' (a reload) retries the app.
    if (departure) window.history[departure.options.replace ? 'replaceState' : 'pushState'](null, '', departure.to);
    root.render(<ConfigErrorPage error={error} />);
    return;
  }
  const router = createAppRouter();
  await initialized(router);
  if (departure) await router.navigate(departure.to, { replace: departure.options.replace, state: departure.options.state });
  root.render(
    <StrictMode>
      <App router={router} />
    </StrictMode>,
  );
}

function initialized(router: AppRouter): Promise<void> {
  if (router.state.initialized) return Promise.resolve();
  return new Promise((resolve) => {
    const stop = router.subscribe((state) => {
      if (!state.initialized) return;
      stop();
      resolve();
    });
  });
}
