/**
 * The auth feature's public interface, for other features:
 * - `useSession()` -> { status: 'loading' | 'signedIn' | 'signedOut', user?: { sub, email, givenName, familyName } }
 * Importing this does not load Amplify: the session loads it on first use. The router imports the guard route
 * (require-auth.tsx) and the app layout the session nav (session-nav.tsx) by path.
 */
export { useSession } from './session-store';
