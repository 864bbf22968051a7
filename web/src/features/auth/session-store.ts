/**
 * The session: who is signed in, for the whole app.
 *
 * Stable interface (other features import it from '../auth'):
 * - `useSession()` -> `{ status, user }`: status is 'loading' (being checked), 'signedIn' or 'signedOut';
 *   `user` ({ sub, email, givenName, familyName }) is set exactly when status is 'signedIn'. The first
 *   call starts the session (loads Amplify, restores the stored tokens, wires the API client's token).
 * - `signOut()`: signs out of Cognito, clears the credits, status becomes 'signedOut'. The caller navigates.
 * - `changePassword(current, next)`: Cognito's ChangePassword for the signed-in user (My Account).
 * - `useSessionNotice()` / `clearSessionNotice()`: why the session ended on its own ('Your session has
 *   expired...'), shown by /login.
 *
 * How it stays right: Amplify keeps the tokens in localStorage (a reload restores them) and refreshes
 * them silently whenever a token is asked for after expiry. The session also re-checks the user with
 * Cognito (GetUser) at start-up, when the tab becomes visible and every few minutes, and when the API
 * answers 401: a refused refresh, a disabled or deleted user, or revoked tokens end the session with a
 * notice, and the route guard sends the user to /login.
 */
import { useEffect } from 'react';
import { create } from 'zustand';
import { setTokenProvider, setUnauthorizedHandler } from '../../lib/api-client';
import { refreshCredits, resetCredits } from '../credits';
import { liveChannel } from '../live';
import { STORAGE_KEYS, storedValue } from '../../lib/browser-storage';
import { isAuthRejection, isUserDisabled } from './auth-errors';
import type { AuthEvent, SessionUser } from './amplify-auth';

export type { SessionUser } from './amplify-auth';
export type SessionStatus = 'loading' | 'signedIn' | 'signedOut';

export const SESSION_NOTICES = {
  expired: 'Your session has expired. Please log in again.',
  disabled: 'Your account has been disabled. Please contact support.',
  signInRequired: 'Please log in to continue.',
} as const;

interface SessionState {
  status: SessionStatus;
  user: SessionUser | undefined;
  /** Why the session ended without the user asking (expired, disabled); shown on /login. */
  notice: string | undefined;
}

export const useSessionStore = create<SessionState>()(() => ({
  status: 'loading',
  user: undefined,
  notice: undefined,
}));

type AmplifyAuth = typeof import('./amplify-auth');

let amplifyLoad: Promise<AmplifyAuth> | undefined;
/** Amplify is a separate chunk, fetched the first time the session is needed. */
export function loadAmplifyAuth(): Promise<AmplifyAuth> {
  amplifyLoad ??= import('./amplify-auth');
  amplifyLoad.catch(() => {
    amplifyLoad = undefined;
  });
  return amplifyLoad;
}

const RECHECK_EVERY_MS = 5 * 60_000;
const RECHECK_ON_FOCUS_AFTER_MS = 60_000;

let started: Promise<void> | undefined;
let lastCheck = 0;
let checking: Promise<void> | undefined;
/** Set while signOut() runs, so its Hub event is not mistaken for an expiry. */
let signingOut = false;

function setSignedIn(user: SessionUser): void {
  const before = useSessionStore.getState();
  useSessionStore.setState({ status: 'signedIn', user, notice: undefined });
  storedValue(STORAGE_KEYS.hasSignedIn).set('1');
  // The first GET /api/me also creates the account with its welcome credits.
  if (before.status !== 'signedIn' || before.user?.sub !== user.sub) {
    // One push channel per signed-in session: a new user gets a new socket (and token).
    liveChannel.stop();
    liveChannel.start();
    void refreshCredits();
  }
}

function setSignedOut(notice?: string): void {
  liveChannel.stop();
  resetCredits();
  useSessionStore.setState((s) => ({ status: 'signedOut', user: undefined, notice: notice ?? s.notice }));
}

/** Ends the session because Cognito refused it; the guard redirects to /login, which shows the notice. */
async function endSession(reason: 'expired' | 'disabled'): Promise<void> {
  const { status, notice } = useSessionStore.getState();
  if (status === 'signedOut') {
    // Restoring the session at start-up can find no user before Amplify reports why: still say why.
    if (!notice) useSessionStore.setState({ notice: SESSION_NOTICES[reason] });
    return;
  }
  setSignedOut(SESSION_NOTICES[reason]);
  try {
    signingOut = true;
    await (await loadAmplifyAuth()).signOutLocally();
  } catch {
    // The tokens are already unusable; signing out only clears them.
  } finally {
    signingOut = false;
  }
}

async function syncFromTokens(auth: AmplifyAuth): Promise<void> {
  const user = await auth.currentUser();
  if (user) setSignedIn(user);
  else if (useSessionStore.getState().status !== 'signedOut') setSignedOut();
}

function handleAuthEvent(auth: AmplifyAuth, event: AuthEvent): void {
  switch (event.type) {
    case 'signedIn':
    case 'tokenRefresh':
      void syncFromTokens(auth).catch(() => undefined);
      break;
    case 'signedOut':
      if (!signingOut) setSignedOut();
      break;
    case 'tokenRefreshFailure':
      // Transient failures (network) keep the tokens; only a refusal ends the session.
      if (isAuthRejection(event.error)) void endSession(isUserDisabled(event.error) ? 'disabled' : 'expired');
      break;
  }
}

/**
 * Asks Cognito whether the user is still valid. A refusal ends the session; network trouble does not.
 * Real Cognito revokes a disabled user's access tokens, so GetUser says only "revoked": a forced refresh
 * then tells a disabled account from an expired session.
 */
export function recheckSession(): Promise<void> {
  if (useSessionStore.getState().status !== 'signedIn') return Promise.resolve();
  checking ??= (async () => {
    lastCheck = Date.now();
    const auth = await loadAmplifyAuth();
    try {
      const profile = await auth.fetchProfile();
      const { user } = useSessionStore.getState();
      if (user) {
        useSessionStore.setState({
          user: {
            ...user,
            email: profile.email ?? user.email,
            givenName: profile.givenName ?? user.givenName,
            familyName: profile.familyName ?? user.familyName,
          },
        });
      }
    } catch (err) {
      if (!isAuthRejection(err)) return;
      if (isUserDisabled(err)) return endSession('disabled');
      // A refused refresh reports itself through the Hub (tokenRefreshFailure), which ends the session
      // with the right notice before this call returns.
      let user: SessionUser | undefined;
      try {
        user = await auth.currentUser({ forceRefresh: true });
      } catch {
        return; // transient: check again later
      }
      if (user) setSignedIn(user);
      else await endSession('expired');
    }
  })().finally(() => {
    checking = undefined;
  });
  return checking;
}

/** Amplify's key for the signed-in user in localStorage: another tab signing in or out changes it. */
const isLastAuthUserKey = (key: string | null) => key === null || (key.startsWith('CognitoIdentityServiceProvider.') && key.endsWith('.LastAuthUser'));

function watchSession(auth: AmplifyAuth): void {
  if (typeof document === 'undefined') return;
  window.addEventListener('storage', (event) => {
    if (!isLastAuthUserKey(event.key)) return;
    // Logged out (or in as someone else) in another tab: follow it, without an expiry notice.
    if (event.newValue === null) setSignedOut();
    else void syncFromTokens(auth).catch(() => undefined);
  });
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible' && Date.now() - lastCheck > RECHECK_ON_FOCUS_AFTER_MS) {
      void recheckSession();
    }
  });
  setInterval(() => {
    if (document.visibilityState === 'visible') void recheckSession();
  }, RECHECK_EVERY_MS);
}

/** Starts the session once: loads Amplify, restores the stored tokens and wires the API client. */
export function startSession(): Promise<void> {
  started ??= (async () => {
    let auth: AmplifyAuth;
    try {
      auth = await loadAmplifyAuth();
      auth.configureAmplify();
    } catch {
      // Amplify could not load (offline, or a deploy replaced the chunk): nobody can be signed in.
      started = undefined;
      setSignedOut();
      return;
    }
    setTokenProvider(auth.idToken);
    setUnauthorizedHandler(() => void recheckSession());
    auth.onAuthEvent((event) => handleAuthEvent(auth, event));
    try {
      await syncFromTokens(auth);
    } catch {
      // Could not refresh (network): the tokens are kept, so the next visit restores the session.
      setSignedOut();
      return;
    }
    watchSession(auth);
    void recheckSession();
  })();
  return started;
}

export function useSession(): { status: SessionStatus; user: SessionUser | undefined } {
  const status = useSessionStore((s) => s.status);
  const user = useSessionStore((s) => s.user);
  useEffect(() => {
    if (status === 'loading') void startSession();
  }, [status]);
  return { status, user };
}

export function useSessionNotice(): string | undefined {
  return useSessionStore((s) => s.notice);
}

export function clearSessionNotice(): void {
  useSessionStore.setState({ notice: undefined });
}

/** Signs out (Cognito revokes the refresh token) and clears the credits. The caller navigates to /login. */
export async function signOut(): Promise<void> {
  signingOut = true;
  try {
    setSignedOut();
    useSessionStore.setState({ notice: undefined });
    await (await loadAmplifyAuth()).signOutLocally();
  } finally {
    signingOut = false;
  }
}

/**
 * Changes the signed-in user's password (Cognito re-checks the current one). Like the rest of the session it
 * loads Amplify on first use, so pages that import it (My Account) do not carry Amplify in their own chunk.
 */
export async function changePassword(oldPassword: string, newPassword: string): Promise<void> {
  await (await loadAmplifyAuth()).changePassword(oldPassword, newPassword);
}

/**
 * Confirms the signed-in user's password with a fresh sign-in, whose tokens' auth_time the server checks before
 * deleting the account. Cognito checks the password first through ChangePassword to the same password, which leaves
 * the session as it is: a wrong password throws (NotAuthorizedException) and the user stays signed in. Only then are
 * the tokens replaced by signing out and in again (Amplify signs in only when signed out).
 */
export async function confirmPassword(password: string): Promise<void> {
  const { user } = useSessionStore.getState();
  if (!user) throw Object.assign(new Error(SESSION_NOTICES.signInRequired), { name: 'NotSignedIn' });
  const auth = await loadAmplifyAuth();
  await auth.changePassword(password, password);
  signingOut = true;
  try {
    await auth.signOutLocally();
    await auth.signInWithPassword(user.email, password);
  } finally {
    signingOut = false;
  }
}

/** Tests only: forget that the session was started. */
export function resetSessionForTesting(state: Partial<SessionState> = {}): void {
  started = undefined;
  checking = undefined;
  lastCheck = 0;
  useSessionStore.setState({ status: 'loading', user: undefined, notice: undefined, ...state });
}

/**
 * Signs in with email and password. 'unconfirmed' means the email is not verified yet (nothing is
 * signed in). On success the session is signed in before this resolves.
 */
export async function logIn(email: string, password: string): Promise<'signedIn' | 'unconfirmed'> {
  await startSession();
  const auth = await loadAmplifyAuth();
  const outcome = await auth.signInWithPassword(email, password);
  if (outcome === 'signedIn') {
    const user = await auth.currentUser();
    if (user) setSignedIn(user);
  }
  return outcome;
}
