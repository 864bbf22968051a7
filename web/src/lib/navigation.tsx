import { type AnchorHTMLAttributes, type MouseEvent, type Ref } from 'react';
import { normalizePath } from './normalize-path';

/**
 * The one navigation abstraction of components that render both in the full app (react-router) and on
 * the light marketing entry (a History API mini router, no react-router in its JS). Shared components
 * (layouts, header, footer, ButtonLink, marketing pages) read the location and navigate through this,
 * never through react-router directly.
 *
 * The app registers react-router's hooks once as the implementation (`setAmbientNavigation`, see
 * app/router-navigation.ts).
 */
export interface NavigateOptions {
  /** Replace the current history entry instead of pushing one. */
  replace?: boolean;
  /** History state for the new entry (react-router's `location.state`). */
  state?: unknown;
}

export interface Navigation {
  pathname: string;
  /** '' or '?a=b'. */
  search: string;
  /** '' or '#id'. */
  hash: string;
  /** The current entry's history state (react-router's `location.state`), for navigations that keep it. */
  readonly state?: unknown;
  /** Goes to a same-origin path such as '/faq' or '/?a=b#c'. */
  navigate(to: string, options?: NavigateOptions): void;
  /** Optional: starts loading what `to` needs when a visitor shows the intent to follow a link. */
  prefetch?(to: string): void;
}

let ambient: (() => Navigation) | undefined;

/** Installs the hook every component navigates with (the app: react-router's location). */
export function setAmbientNavigation(hook: () => Navigation): void {
  ambient = hook;
}

export function useNavigation(): Navigation {
  if (!ambient) throw new Error('No navigation: call setAmbientNavigation() first.');
  return ambient();
}

/** react-router's NavLink rule: `to` itself, or (unless `end`) a path below it; case and a trailing slash ignored. */
export function isActivePath(pathname: string, to: string, end = false): boolean {
  const norm = (p: string) => normalizePath(p).toLowerCase();
  const current = norm(pathname);
  const target = norm(to);
  if (current === target) return true;
  if (end || target === '/') return false;
  return current.startsWith(`${target}/`);
}

export type AppLinkProps = Omit<AnchorHTMLAttributes<HTMLAnchorElement>, 'href'> &
  NavigateOptions & {
    /** A same-origin path ('/pricing', '/?tab=x#y'); other URLs behave as plain links. */
    to: string;
    ref?: Ref<HTMLAnchorElement>;
  };

const EXTERNAL = /^(?:[a-z][a-z\d+.-]*:|\/\/)/i;

/**
 * A link that navigates in the page (no reload) on a plain left click, and stays a real <a href> for
 * everything else: new tab, modifier keys, middle click, copying the address, no JavaScript.
 */
export function AppLink({ to, replace, state, onClick, onMouseEnter, onFocus, onTouchStart, target, ...rest }: AppLinkProps) {
  const navigation = useNavigation();
  const internal = !EXTERNAL.test(to);

  function handleClick(event: MouseEvent<HTMLAnchorElement>) {
    onClick?.(event);
    if (!internal || event.defaultPrevented || event.button !== 0) return;
    if ((target && target !== '_self') || rest.download !== undefined) return;
    if (event.metaKey || event.altKey || event.ctrlKey || event.shiftKey) return;
    event.preventDefault();
    // Like react-router: following a link to the address already shown does not add a history entry.
    const here = `${navigation.pathname}${navigation.search}${navigation.hash}`;
    navigation.navigate(to, { replace: replace ?? to === here, state });
  }

  // Warms the target's code while the pointer or focus is on the link (the marketing entry loads the app).
  const prefetch = () => {
    if (internal) navigation.prefetch?.(to);
  };
  return (
    <a
      {...rest}
      href={to}
      target={target}
      onClick={handleClick}
      onMouseEnter={(e) => {
        onMouseEnter?.(e);
        prefetch();
      }}
      onFocus={(e) => {
        onFocus?.(e);
        prefetch();
      }}
      onTouchStart={(e) => {
        onTouchStart?.(e);
        prefetch();
      }}
    />
  );
}
