/**
 * The protected-route guard: a layout route whose children need a signed-in user
 * (router.tsx `protectedRoutes`: /generator, /video-generator/*, /admin).
 * - while the session is checked: 'Loading...';
 * - signed out: a redirect to /login carrying the page asked for (`state.from`), where login returns;
 * - signed in: the child route.
 */
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageLoader } from '../../components/spinner';
import type { LoginPageState } from './login-page';
import { useSession } from './session-store';

export function RequireAuth() {
  const { status } = useSession();
  const location = useLocation();
  if (status === 'loading') return <PageLoader label="Loading..." />;
  if (status === 'signedOut') {
    // /login returns here after signing in.
    const state: LoginPageState = { from: `${location.pathname}${location.search}${location.hash}` };
    return <Navigate to="/login" replace state={state} />;
  }
  return <Outlet />;
}

export default RequireAuth;
