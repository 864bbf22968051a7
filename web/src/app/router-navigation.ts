import { useMemo } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { setAmbientNavigation, type Navigation } from '../lib/navigation';

/** lib/navigation's Navigation backed by react-router: the location and navigate of the router above. */
export function useRouterNavigation(): Navigation {
  const { pathname, search, hash, state } = useLocation();
  const navigate = useNavigate();
  return useMemo(
    () => ({
      pathname,
      search,
      hash,
      state,
      navigate: (to, options) => void navigate(to, { replace: options?.replace, state: options?.state }),
    }),
    [pathname, search, hash, state, navigate],
  );
}

/**
 * Makes shared components (layouts, header, marketing pages) follow react-router wherever they render
 * under it. The app entry calls this before its first render; the web tests' setup does the same.
 */
export function installRouterNavigation(): void {
  setAmbientNavigation(useRouterNavigation);
}
