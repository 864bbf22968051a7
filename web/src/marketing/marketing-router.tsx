import { useEffect, useLayoutEffect, useMemo, useRef, useState, type ComponentType } from 'react';
import { MarketingFrame } from '../app/layouts/marketing-frame';
import { NavigationProvider, type NavigateOptions, type Navigation } from '../lib/navigation';
import { currentLocation, persistScroll, rememberScroll, savedScroll, scrollToHash, writeEntry, type HistoryLocation } from './browser-history';
import { marketingPage } from './marketing-routes';

/** Where the app takes over: a link's target, or nothing when back/forward already put the browser there. */
export type Departure = { to: string; options: NavigateOptions } | undefined;

export interface MarketingRouterProps {
  /** The page of the address the visitor opened, already loaded. */
  initialPage: ComponentType;
  /** Any address that is not a marketing page is the full app's: hand the tab over to it. */
  onLeave: (departure: Departure) => void;
  /** A visitor is about to follow a link into the app: start loading it. */
  onLeaveIntent?: () => void;
}

type Action = 'load' | 'push' | 'replace' | 'pop';

interface View {
  location: HistoryLocation;
  Page: ComponentType;
  action: Action;
}

/**
 * A minimal router for the marketing pages on the History API: the known paths in MARKETING_PAGES, page
 * chunks loaded before the address changes (the old page stays until then, as with react-router's lazy
 * routes), scroll to top or to the hash on a new page, scroll restored on back/forward and reload. Every
 * other address goes to `onLeave`.
 */
export function MarketingRouter({ initialPage, onLeave, onLeaveIntent }: MarketingRouterProps) {
  const [view, setView] = useState<View>(() => ({ location: currentLocation(), Page: initialPage, action: 'load' }));
  const shownKey = useRef(view.location.key);
  const latest = useRef(0);
  const leaving = useRef(false);
  const callbacks = useRef({ onLeave, onLeaveIntent });
  useLayoutEffect(() => {
    shownKey.current = view.location.key;
    callbacks.current = { onLeave, onLeaveIntent };
  });

  // One function for the life of the router: it reads everything that changes through refs.
  const [go] = useState(() => async (href: string, action: Exclude<Action, 'load'>, options: NavigateOptions = {}) => {
    if (leaving.current) return;
    const url = new URL(href, window.location.href);
    if (url.origin !== window.location.origin) {
      window.location.assign(url.href);
      return;
    }
    const path = `${url.pathname}${url.search}${url.hash}`;
    if (action !== 'pop') rememberScroll(shownKey.current);
    const load = marketingPage(url.pathname);
    if (!load) {
      leaving.current = true;
      persistScroll();
      callbacks.current.onLeave(action === 'pop' ? undefined : { to: path, options });
      return;
    }
    const id = ++latest.current;
    let Page: ComponentType;
    try {
      Page = (await load()).default;
    } catch {
      // The page's code cannot be downloaded (offline, or replaced by a new deploy): let the browser load the address.
      window.location.assign(url.href);
      return;
    }
    if (id !== latest.current || leaving.current) return; // a later navigation won
    if (action !== 'pop') writeEntry(path, options.state, action === 'replace');
    setView({ location: currentLocation(), Page, action });
  });

  useEffect(() => {
    window.history.scrollRestoration = 'manual';
    const onPopState = () => {
      // The browser has already moved to the entry; remember where the reader was on the one it left.
      rememberScroll(shownKey.current);
      void go(window.location.href, 'pop');
    };
    const onPageHide = () => {
      rememberScroll(shownKey.current);
      persistScroll();
      window.history.scrollRestoration = 'auto';
    };
    window.addEventListener('popstate', onPopState);
    window.addEventListener('pagehide', onPageHide);
    return () => {
      window.removeEventListener('popstate', onPopState);
      window.removeEventListener('pagehide', onPageHide);
      window.history.scrollRestoration = 'auto';
    };
  }, [go]);

  useLayoutEffect(() => {
    const { action, location } = view;
    const saved = action === 'load' || action === 'pop' ? savedScroll(location.key) : undefined;
    if (saved !== undefined) window.scrollTo(0, saved);
    else if (!scrollToHash(location.hash) && action !== 'load') window.scrollTo(0, 0);
  }, [view]);

  const { pathname, search, hash, state } = view.location;
  const navigation = useMemo<Navigation>(
    () => ({
      pathname,
      search,
      hash,
      state,
      navigate: (to, options) => void go(to, options?.replace ? 'replace' : 'push', options),
      prefetch: (to) => {
        const url = new URL(to, window.location.href);
        if (url.origin !== window.location.origin) return;
        const load = marketingPage(url.pathname);
        if (load) void load().catch(() => undefined);
        else callbacks.current.onLeaveIntent?.();
      },
    }),
    [pathname, search, hash, state, go],
  );

  const { Page } = view;
  return (
    <NavigationProvider value={navigation}>
      <MarketingFrame>
        <Page />
      </MarketingFrame>
    </NavigationProvider>
  );
}
