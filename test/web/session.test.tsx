import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { cognitoError, fakeAmplifyAuth, resetFakeAmplifyAuth, setUpAuthTest, TEST_USER } from './helpers/auth-env';

jest.mock('../../web/src/features/auth/amplify-auth', () => fakeAmplifyAuth());
const amplify = jest.requireMock('../../web/src/features/auth/amplify-auth') as ReturnType<typeof fakeAmplifyAuth>;

import { SessionAppLayout } from '../../web/src/app/layouts/app-layout';
import { RequireAuth } from '../../web/src/features/auth/require-auth';
import { recheckSession, startSession, useSessionStore } from '../../web/src/features/auth/session-store';
import { readCredits } from '../../web/src/features/credits';
import { api } from '../../web/src/lib/api-client';
import type { AuthEvent } from '../../web/src/features/auth/amplify-auth';

const fetchMock = jest.fn();

beforeEach(() => {
  resetFakeAmplifyAuth(amplify);
  setUpAuthTest('loading');
  fetchMock.mockReset();
  fetchMock.mockResolvedValue({ ok: true, status: 200, text: async () => JSON.stringify({ credits: 10 }) });
  global.fetch = fetchMock as unknown as typeof fetch;
});

function renderApp(path: string) {
  const router = createMemoryRouter(
    [
      {
        Component: SessionAppLayout,
        children: [
          { path: '/login', element: <h1>Login page</h1> },
          { path: '/signup', element: <h1>Sign up page</h1> },
          { Component: RequireAuth, children: [{ path: '/admin', element: <h1>Account page</h1> }] },
        ],
      },
    ],
    { initialEntries: [path] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('the protected-route guard', () => {
  it("shows 'Loading...' while the session is checked, then redirects a visitor who signed in before to /login with the page asked for", async () => {
    localStorage.setItem('framewright:has-signed-in', '1');
    let finish: (user: undefined) => void = () => undefined;
    amplify.currentUser.mockImplementationOnce(() => new Promise((resolve) => (finish = resolve)));
    const router = renderApp('/admin?tab=contact');
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    await waitFor(() => expect(amplify.currentUser).toHaveBeenCalled());
    expect(screen.getByText('Loading...')).toBeInTheDocument();
    await act(async () => finish(undefined));
    expect(await screen.findByRole('heading', { name: 'Login page' })).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ from: '/admin?tab=contact' });
  });

  it('sends a visitor who never signed in on this browser to /signup, with the page asked for; a sign-in marks the browser', async () => {
    localStorage.clear();
    amplify.currentUser.mockResolvedValueOnce(undefined as never);
    const router = renderApp('/admin?tab=contact');
    expect(await screen.findByRole('heading', { name: 'Sign up page' })).toBeInTheDocument();
    expect(router.state.location.state).toEqual({ from: '/admin?tab=contact' });
    expect(localStorage.getItem('framewright:has-signed-in')).toBeNull();
  });

  it('renders the page for a signed-in user, with the signed-in nav and the balance from GET /api/me', async () => {
    amplify.currentUser.mockResolvedValue(TEST_USER as never);
    amplify.idToken.mockResolvedValue('id-token' as never);
    renderApp('/admin');
    expect(await screen.findByRole('heading', { name: 'Account page' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'App' });
    expect(within(nav).getAllByRole('link').map((l) => [l.textContent, l.getAttribute('href')])).toEqual([
      ['Image Generator', '/generator'],
      ['Video Generator', '/video-generator'],
      ['My Account', '/admin'],
    ]);
    expect(within(nav).getByRole('button', { name: 'Logout' })).toBeInTheDocument();
    await waitFor(() => expect(within(nav).getByTestId('credit-balance')).toHaveTextContent('10'));
    // The API client sends the ID token.
    const [url, init] = fetchMock.mock.calls[0]!;
    expect(url).toBe('/api/me');
    expect(init.headers.authorization).toBe('Bearer id-token');
  });

  it('Logout signs out, forgets the credits and goes to /login', async () => {
    amplify.currentUser.mockResolvedValue(TEST_USER as never);
    const router = renderApp('/admin');
    await screen.findByRole('heading', { name: 'Account page' });
    await waitFor(() => expect(readCredits().credits).toBe(10));
    await userEvent.setup().click(screen.getByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(amplify.signOutLocally).toHaveBeenCalled();
    expect(readCredits().credits).toBeUndefined();
    const nav = screen.getByRole('navigation', { name: 'App' });
    expect(within(nav).getAllByRole('link').map((l) => l.textContent)).toEqual(['Login', 'Sign Up']);
  });
});

describe('the session', () => {
  async function signedIn() {
    amplify.currentUser.mockResolvedValue(TEST_USER as never);
    await startSession();
    expect(useSessionStore.getState()).toMatchObject({ status: 'signedIn', user: TEST_USER });
    // Let the check that start-up begins finish first.
    await recheckSession();
    expect(amplify.fetchProfile).toHaveBeenCalledTimes(1);
  }

  function hubListener(): (event: AuthEvent) => void {
    const calls = amplify.onAuthEvent.mock.calls as unknown as Array<[(event: AuthEvent) => void]>;
    return calls[0]![0];
  }

  it('ends with the expiry notice when Amplify reports a refused refresh', async () => {
    await signedIn();
    act(() => hubListener()({ type: 'tokenRefreshFailure', error: cognitoError('NotAuthorizedException', 'Refresh Token has expired') }));
    await waitFor(() => expect(useSessionStore.getState().status).toBe('signedOut'));
    expect(useSessionStore.getState().notice).toBe('Your session has expired. Please log in again.');
    expect(amplify.signOutLocally).toHaveBeenCalled();
  });

  it('still says the session expired when start-up finds no user before Amplify reports the refused refresh', async () => {
    // Stored tokens that can no longer be refreshed: fetchAuthSession yields no user, and the Hub event comes after.
    amplify.currentUser.mockResolvedValue(undefined);
    await startSession();
    expect(useSessionStore.getState()).toMatchObject({ status: 'signedOut', notice: undefined });
    act(() => hubListener()({ type: 'tokenRefreshFailure', error: cognitoError('NotAuthorizedException', 'Refresh Token has been revoked') }));
    await waitFor(() => expect(useSessionStore.getState().notice).toBe('Your session has expired. Please log in again.'));
  });

  it('keeps the session through a transient refresh failure (network)', async () => {
    await signedIn();
    act(() => hubListener()({ type: 'tokenRefreshFailure', error: cognitoError('NetworkError', 'A network error has occurred.') }));
    expect(useSessionStore.getState().status).toBe('signedIn');
  });

  it('ends with the disabled notice when Cognito says the user is disabled', async () => {
    await signedIn();
    amplify.fetchProfile.mockRejectedValueOnce(cognitoError('NotAuthorizedException', 'User is disabled.'));
    await recheckSession();
    expect(useSessionStore.getState()).toMatchObject({ status: 'signedOut', notice: 'Your account has been disabled. Please contact support.' });
  });

  it('tells a disabled account from revoked tokens by trying a refresh (what real Cognito answers)', async () => {
    await signedIn();
    amplify.fetchProfile.mockRejectedValueOnce(cognitoError('NotAuthorizedException', 'Access Token has been revoked'));
    amplify.currentUser.mockImplementationOnce(async () => {
      // Amplify reports the refusal through the Hub before it resolves with no user.
      hubListener()({ type: 'tokenRefreshFailure', error: cognitoError('NotAuthorizedException', 'User is disabled.') });
      return undefined;
    });
    await recheckSession();
    await waitFor(() => expect(useSessionStore.getState().notice).toBe('Your account has been disabled. Please contact support.'));
    expect(useSessionStore.getState().status).toBe('signedOut');
  });

  it('a 401 from the API re-checks the session with Cognito', async () => {
    await signedIn();
    fetchMock.mockResolvedValueOnce({ ok: false, status: 401, text: async () => JSON.stringify({ error: 'Unauthorized' }) });
    amplify.idToken.mockResolvedValue('id-token' as never);
    amplify.fetchProfile.mockRejectedValueOnce(cognitoError('UserNotFoundException', 'User does not exist.'));
    amplify.currentUser.mockResolvedValueOnce(undefined);
    await expect(api.me()).rejects.toMatchObject({ status: 401 });
    await waitFor(() => expect(useSessionStore.getState().status).toBe('signedOut'));
    expect(useSessionStore.getState().notice).toBe('Your session has expired. Please log in again.');
  });

  it('updates the profile from Cognito when the check succeeds', async () => {
    await signedIn();
    amplify.fetchProfile.mockResolvedValueOnce({ email: TEST_USER.email, givenName: 'Augusta', familyName: 'King' });
    await recheckSession();
    expect(useSessionStore.getState().user).toEqual({ ...TEST_USER, givenName: 'Augusta', familyName: 'King' });
  });
});
