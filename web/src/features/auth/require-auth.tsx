/**
 * The protected-route guard: a layout route whose children need a signed-in user
 * (router.tsx `protectedRoutes`: /generator, /video-generator/*, /admin).
 * - while the session is checked: 'Loading...';
 * - signed out: a redirect carrying the page asked for (`state.from`), where signing in returns: to /login when this
 *   browser has signed in before, else to /signup (a new visitor pressing Start Creating, Go To App or Buy has no account);
 * - signed in: the child route.
 */
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageLoader } from '../../components/spinner';
import type { LoginPageState } from './login-page';
import { STORAGE_KEYS, storedValue } from '../../lib/browser-storage';
import { useSession } from './session-store';

export function RequireAuth() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <PageLoader label="Loading..." />;
  if (status === 'signedOut') {
    // /login returns here after signing in (from /signup through /verify too).
    const state: LoginPageState = { from: `${location.pathname}${location.search}${location.hash}` };
    const returning = storedValue(STORAGE_KEYS.hasSignedIn).get() !== undefined;
    return <Navigate to={returning ? '/login' : '/signup'} replace state={state} />;
  }
  return <Outlet />;
}

export default RequireAuth;
