import { StrictMode, type ComponentType } from 'react';
import type { Root } from 'react-dom/client';
import { ensureConfig } from '../lib/config-state';
import { adoptEntry } from './browser-history';
import { MarketingRouter, type Departure } from './marketing-router';

type AppEntry = typeof import('../app/app-entry');

/**
 * The light entry of the public pages (main.tsx picks it for the addresses in MARKETING_PAGES): React,
 * the marketing layout and the page, with no react-router, zod or Amplify in the initial JavaScript.
 * Following a link anywhere else hands the tab over to the full app without a reload.
 */
export function startMarketing(root: Root, initialPage: ComponentType): void {
  let app: Promise<AppEntry> | undefined;
  const loadApp = (): Promise<AppEntry> => {
    app ??= import('../app/app-entry');
    app.catch(() => {
      app = undefined; // try again on the next attempt
    });
    return app;
  };

  const leave = (departure: Departure) => {
    loadApp()
      .then((entry) => entry.handOverToApp(root, departure))
      .catch(() => {
        // The app's code cannot be downloaded (offline, or replaced by a new deploy): load the address instead.
        if (!departure) window.location.reload();
        else if (departure.options.replace) window.location.replace(departure.to);
        else window.location.assign(departure.to);
      });
  };

  adoptEntry();
  root.render(
    <StrictMode>
      <MarketingRouter initialPage={initialPage} onLeave={leave} onLeaveIntent={() => void loadApp().catch(() => undefined)} />
    </StrictMode>,
  );

  // Off the critical path: read /config.json (preloaded by index.html) for the contact form, the terms and
  // a quicker hand-over to the app. The pages render without it.
  const whenIdle = window.requestIdleCallback ?? ((fn: () => void) => window.setTimeout(fn, 1));
  whenIdle(() => void ensureConfig().catch(() => undefined));
}
