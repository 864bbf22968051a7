/**
 * Rendering account pages in jsdom. Cognito is out of reach here, so tests replace the one module that
 * talks to Amplify (features/auth/amplify-auth.ts) with `jest.mock` and these fakes; every page, store
 * and validation rule above it is the real code. The Playwright journeys cover the real Cognito path.
 */
import './router-env';
import { configure, render } from '@testing-library/react';
import type { ReactElement } from 'react';
import { createMemoryRouter, RouterProvider, useLocation, type RouteObject } from 'react-router-dom';
import { setConfigForTesting } from '../../../web/src/lib/config';
import { resetSessionForTesting, type SessionUser } from '../../../web/src/features/auth/session-store';
import { resetCredits } from '../../../web/src/features/credits';

// Lazy tabs and chained async steps: allow for a busy CI machine (findBy/waitFor still return at once when ready).
configure({ asyncUtilTimeout: 5_000 });

export const TEST_USER: SessionUser = { sub: 'sub-123', email: 'ada@example.com', givenName: 'Ada', familyName: 'Lovelace' };

/** The fakes behind `jest.mock('.../amplify-auth', () => fakeAmplifyAuth())`. */
export function fakeAmplifyAuth() {
  return {
    configureAmplify: jest.fn(),
    currentUser: jest.fn(async () => undefined),
    idToken: jest.fn(async () => undefined),
    fetchProfile: jest.fn(async () => ({})),
    onAuthEvent: jest.fn(() => () => undefined),
    signInWithPassword: jest.fn(async () => 'signedIn'),
    signOutLocally: jest.fn(async () => undefined),
    registerUser: jest.fn(async () => undefined),
    confirmEmail: jest.fn(async () => undefined),
    resendVerificationCode: jest.fn(async () => undefined),
    requestPasswordReset: jest.fn(async () => undefined),
    confirmPasswordReset: jest.fn(async () => undefined),
    changePassword: jest.fn(async () => undefined),
  };
}

/** Back to the default fakes: clears calls and any queued or replaced implementation. */
export function resetFakeAmplifyAuth(fakes: ReturnType<typeof fakeAmplifyAuth>): void {
  const defaults = fakeAmplifyAuth();
  for (const key of Object.keys(fakes) as Array<keyof typeof fakes>) {
    const fn = fakes[key] as jest.Mock;
    fn.mockReset();
    fn.mockImplementation((defaults[key] as jest.Mock).getMockImplementation()!);
  }
}

/** A Cognito service error as Amplify throws it. */
export function cognitoError(name: string, message = name): Error {
  return Object.assign(new Error(message), { name });
}

export function setUpAuthTest(session: 'signedIn' | 'signedOut' | 'loading' = 'signedOut') {
  setConfigForTesting({
    region: 'us-east-1',
    userPoolId: 'us-east-1_test',
    userPoolClientId: 'client',
    apiBaseUrl: '',
    supportEmail: 'help@framewright.test',
  });
  resetSessionForTesting(
    session === 'loading' ? {} : { status: session, user: session === 'signedIn' ? TEST_USER : undefined },
  );
  resetCredits();
}

/** Shows where the router went, and with which state. */
function Where() {
  const location = useLocation();
  return (
    <output data-testid="location" data-state={JSON.stringify(location.state ?? null)}>
      {`${location.pathname}${location.search}`}
    </output>
  );
}

const stub = (path: string): RouteObject => ({ path, element: <Where /> });

/** Renders `element` at `path`, with stand-ins for the pages it may navigate to. */
export function renderAt(path: string, element: ReactElement, initialEntry: string | { pathname: string; search?: string; state?: unknown } = path) {
  const routes: RouteObject[] = [
    { path, element: <>{element}<Where /></> },
    ...['/login', '/verify', '/generator', '/admin', '/signup'].filter((p) => p !== path).map(stub),
  ];
  const router = createMemoryRouter(routes, { initialEntries: [initialEntry] });
  return { router, ...render(<RouterProvider router={router} />) };
}
