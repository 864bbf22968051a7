import { startTransition, StrictMode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { createBrowserRouter, matchRoutes, type RouteObject } from 'react-router-dom';
import { ensureConfig } from '../lib/config-state';
import { App } from './app';
import { ConfigErrorPage } from './config-error-page';
import { createAppRouter, routes } from './router';
import { installRouterNavigation } from './router-navigation';

/** Set on #root by the prerender (scripts/build-web.ts): the page's HTML is already there, to hydrate. */
export const PRERENDERED_ATTRIBUTE = 'data-prerendered';

/**
 * Starts the app in `container`: a prerendered page (a public page, or the not-found page) is hydrated at
 * once, without waiting for /config.json, and the promise resolves once it is (main.ts then replays the clicks that
 * came sooner); any other address (the signed-in pages, a single-page app) reads and validates the runtime
 * configuration first, then renders.
 */
export async function startApp(container: HTMLElement): Promise<void> {
  installRouterNavigation();
  if (container.hasAttribute(PRERENDERED_ATTRIBUTE)) return hydrate(container);
  const root = createRoot(container);
  try {
    await ensureConfig(); // the validator (zod) is only downloaded here, never by a public page
  } catch (error) {
    root.render(<ConfigErrorPage error={error} />);
    return;
  }
  root.render(
    <StrictMode>
      <App />
    </StrictMode>,
  );
}

async function hydrate(container: HTMLElement): Promise<void> {
  // The router's documented recipe for lazy routes and hydration: load the matched routes' modules first, so the
  // first render shows the same page as the HTML instead of a fallback.
  await Promise.all(
    (matchRoutes(routes, window.location) ?? []).map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return;
      const loaded = await route.lazy();
      Object.assign(route, { ...loaded, lazy: undefined } satisfies Partial<RouteObject>);
    }),
  );
  const router = createBrowserRouter(routes);
  // A transition: hydration yields to the browser between components instead of blocking it in one long task.
  const hydrated = new Promise<void>((resolve) => {
    startTransition(() => {
      hydrateRoot(
        container,
        <StrictMode>
          <App router={router} onHydrated={resolve} />
        </StrictMode>,
      );
    });
  });
  // Off the critical path: the contact form, the terms' support address and the app's pages need it.
  const whenIdle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 1));
  whenIdle(() => void ensureConfig().catch(() => undefined));
  return hydrated;
}

export { createAppRouter };
