/**
 * The only module that talks to Amplify (`aws-amplify`, Cognito user pools). Everything else in the app
 * goes through the session store (session-store.ts) or auth-service.ts, so Amplify is downloaded only
 * when a non-marketing page first needs the session: session-store.ts imports this module dynamically.
 *
 * Locally /config.json names cognito-local's endpoint and USER_PASSWORD_AUTH (cognito-local has no SRP);
 * in the cloud both are absent and Amplify signs in with SRP against Cognito itself.
 */
import { Amplify } from 'aws-amplify';
import { normalizeEmail } from '../../../../contract/auth';
import {
  confirmResetPassword,
  confirmSignUp,
  fetchAuthSession,
  fetchUserAttributes,
  resendSignUpCode,
  resetPassword,
  signIn,
  signOut,
  signUp,
  updatePassword,
  type AuthSession,
} from 'aws-amplify/auth';
import { Hub } from 'aws-amplify/utils';
import { getConfig } from '../../lib/config';

export interface SessionUser {
  /** Cognito's stable user id; the API's identity. */
  sub: string;
  email: string;
  givenName: string;
  familyName: string;
}

let configured = false;

/** Configures Amplify once from the runtime config. */
export function configureAmplify(): void {
  if (configured) return;
  const config = getConfig();
  Amplify.configure({
    Auth: {
      Cognito: {
        userPoolId: config.userPoolId,
        userPoolClientId: config.userPoolClientId,
        ...(config.userPoolEndpoint ? { userPoolEndpoint: config.userPoolEndpoint } : {}),
        loginWith: { email: true },
        signUpVerificationMethod: 'code',
      },
    },
  });
  configured = true;
}

function authFlowType() {
  return getConfig().authFlowType ?? 'USER_SRP_AUTH';
}

const claim = (payload: Record<string, unknown>, key: string) => {
  const value = payload[key];
  return typeof value === 'string' ? value : '';
};

export function userFromSession(session: AuthSession): SessionUser | undefined {
  const payload = session.tokens?.idToken?.payload as Record<string, unknown> | undefined;
  if (!payload || typeof payload.sub !== 'string') return undefined;
  return {
    sub: payload.sub,
    email: claim(payload, 'email'),
    givenName: claim(payload, 'given_name'),
    familyName: claim(payload, 'family_name'),
  };
}

/**
 * The signed-in user from the stored tokens, refreshing them first when they have expired. Undefined
 * when nobody is signed in or the refresh was refused (Amplify then clears the tokens and reports the
 * refusal through `onAuthEvent`). Throws on transient failures (network), keeping the tokens.
 */
export async function currentUser(options: { forceRefresh?: boolean } = {}): Promise<SessionUser | undefined> {
  configureAmplify();
  return userFromSession(await fetchAuthSession(options));
}

/** The ID token for API calls (the API's JWT authorizer checks ID tokens); refreshed silently when expired. */
export async function idToken(): Promise<string | undefined> {
  configureAmplify();
  try {
    return (await fetchAuthSession()).tokens?.idToken?.toString();
  } catch {
    // A transient refresh failure: send the request without a token; the API answers 401.
    return undefined;
  }
}

/** Asks Cognito about the user (GetUser): fails for a disabled, deleted or signed-out-everywhere user. */
export async function fetchProfile(): Promise<Partial<SessionUser>> {
  configureAmplify();
  const a = await fetchUserAttributes();
  return { email: a.email, givenName: a.given_name, familyName: a.family_name };
}

export type AuthEvent =
  | { type: 'signedIn' }
  | { type: 'signedOut' }
  | { type: 'tokenRefresh' }
  | { type: 'tokenRefreshFailure'; error: unknown };

/** Amplify's auth events (Hub), narrowed to what the session needs. Returns the unsubscribe function. */
export function onAuthEvent(listener: (event: AuthEvent) => void): () => void {
  configureAmplify();
  return Hub.listen('auth', ({ payload }) => {
    switch (payload.event) {
      case 'signedIn':
      case 'signedOut':
      case 'tokenRefresh':
        listener({ type: payload.event });
        break;
      case 'tokenRefresh_failure':
        listener({ type: 'tokenRefreshFailure', error: (payload.data as { error?: unknown } | undefined)?.error });
        break;
      default:
        break;
    }
  });
}

export type SignInOutcome = 'signedIn' | 'unconfirmed';

export async function signInWithPassword(email: string, password: string): Promise<SignInOutcome> {
  configureAmplify();
  const attempt = () => signIn({ username: normalizeEmail(email), password, options: { authFlowType: authFlowType() } });
  let result;
  try {
    result = await attempt();
  } catch (err) {
    // Tokens left behind by a session we could not check (e.g. offline at start-up): start afresh.
    if ((err as { name?: string }).name !== 'UserAlreadyAuthenticatedException') throw err;
    await signOut();
    result = await attempt();
  }
  if (result.isSignedIn) return 'signedIn';
  if (result.nextStep.signInStep === 'CONFIRM_SIGN_UP') return 'unconfirmed';
  // MFA and new-password challenges are not enabled on the pool.
  throw Object.assign(new Error(`Unsupported sign-in step: ${result.nextStep.signInStep}`), { name: 'UnsupportedSignInStep' });
}

export async function signOutLocally(): Promise<void> {
  configureAmplify();
  await signOut();
}

export interface SignUpInput {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
}

export async function registerUser(input: SignUpInput): Promise<void> {
  configureAmplify();
  await signUp({
    username: normalizeEmail(input.email),
    password: input.password,
    options: { userAttributes: { email: normalizeEmail(input.email), given_name: input.firstName, family_name: input.lastName } },
  });
}

export async function confirmEmail(email: string, code: string): Promise<void> {
  configureAmplify();
  await confirmSignUp({ username: normalizeEmail(email), confirmationCode: code });
}

export async function resendVerificationCode(email: string): Promise<void> {
  configureAmplify();
  await resendSignUpCode({ username: normalizeEmail(email) });
}

export async function requestPasswordReset(email: string): Promise<void> {
  configureAmplify();
  await resetPassword({ username: normalizeEmail(email) });
}

export async function confirmPasswordReset(email: string, code: string, newPassword: string): Promise<void> {
  configureAmplify();
  await confirmResetPassword({ username: normalizeEmail(email), confirmationCode: code, newPassword });
}

export async function changePassword(oldPassword: string, newPassword: string): Promise<void> {
  configureAmplify();
  await updatePassword({ oldPassword, newPassword });
}
