/**
 * The auth feature's public interface, for other features:
 * - `useSession()` -> { status: 'loading' | 'signedIn' | 'signedOut', user?: { sub, email, givenName, familyName } }
 * - `signOut()` -> signs out and clears the credits (then navigate to /login)
 * - `RequireAuth`: the guard route (router.tsx puts protected pages under it)
 * Importing this does not load Amplify: the session loads it on first use.
 */
export { RequireAuth, type LoginRedirectState } from './require-auth';
export {
  SESSION_NOTICES,
  recheckSession,
  signOut,
  useSession,
  type SessionStatus,
  type SessionUser,
} from './session-store';
