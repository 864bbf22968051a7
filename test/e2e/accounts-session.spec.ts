import { expect, test, type Page, type Request } from '@playwright/test';
import { createVerifiedUser, disableUser, loginViaUi, storedIdToken, submitLogin } from './support/accounts';

/** Rewrites the stored Cognito tokens as Amplify keeps them in localStorage. */
/**
 * Rewrites the stored Cognito tokens from a same-origin page that runs no app code (robots.txt), so no running app
 * refreshes or clears them before the test opens the app again (a still-open app page could find the expired token,
 * refresh it and end the session itself, and the page opened next would find no tokens at all).
 */
async function tamperTokens(page: Page, options: { expire: boolean; refreshToken?: string }): Promise<string> {
  await page.goto('/robots.txt');
  return page.evaluate(({ expire, refreshToken }) => {
    const keys = Object.keys(localStorage).filter((k) => k.startsWith('CognitoIdentityServiceProvider.'));
    const encode = (o: unknown) => btoa(JSON.stringify(o)).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
    const decode = (s: string) => JSON.parse(atob(s.replace(/-/g, '+').replace(/_/g, '/')));
    let idToken = '';
    for (const key of keys) {
      if (expire && (key.endsWith('.idToken') || key.endsWith('.accessToken'))) {
        const [header, payload, signature] = localStorage.getItem(key)!.split('.');
        const claims = decode(payload!);
        claims.exp = Math.floor(Date.now() / 1000) - 600;
        localStorage.setItem(key, [header, encode(claims), signature].join('.'));
      }
      if (refreshToken !== undefined && key.endsWith('.refreshToken')) localStorage.setItem(key, refreshToken);
      if (key.endsWith('.idToken')) idToken = localStorage.getItem(key)!;
    }
    if (!idToken) throw new Error('no stored Cognito tokens');
    return idToken;
  }, options);
}

const cognitoTarget = (r: Request) => r.headers()['x-amz-target'] ?? '';

test.describe('protected routes and the session', () => {
  test('a protected route shows Loading..., redirects to sign-in and returns there after login', async ({ page }) => {
    const user = await createVerifiedUser();
    await page.goto('/admin?tab=contact');
    // This browser never signed in: Sign up first; its Log in link keeps the page asked for.
    await expect(page).toHaveURL(/\/signup$/);
    await page.getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByText('Please log in to continue.')).toBeVisible();
    await loginViaUi(page, user, { goto: false });
    await expect(page).toHaveURL(/\/admin\?tab=contact$/);
    await expect(page.getByRole('tab', { name: 'Contact', selected: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'FAQ' })).toHaveAttribute('href', '/faq');
    await expect(page.getByRole('tabpanel')).toContainText('support@');

    // Each guarded route: back to where the user asked to go.
    for (const path of ['/generator', '/video-generator/wan']) {
      await page.getByRole('button', { name: 'Logout' }).click();
      await expect(page).toHaveURL(/\/login$/);
      await page.goto(path);
      await expect(page).toHaveURL(/\/login$/);
      await loginViaUi(page, user, { goto: false });
      await expect(page).toHaveURL(new RegExp(`${path}$`));
    }
  });

  test('the guard shows Loading... while the session is checked', async ({ page }) => {
    // Hold the Amplify chunk back so the check cannot finish until we let it.
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/amplify-auth-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/admin');
    await expect(page.getByText('Loading...')).toBeVisible();
    release();
    // This browser never signed in: the guard offers Sign up.
    await expect(page).toHaveURL(/\/signup$/);
  });

  test('the session survives a reload, and expired tokens are refreshed silently', async ({ page }) => {
    const user = await createVerifiedUser();
    await loginViaUi(page, user);
    await page.goto('/admin');
    await expect(page.getByText(`Logged in as ${user.email}`)).toBeVisible();
    await page.reload();
    await expect(page.getByText(`Logged in as ${user.email}`)).toBeVisible();

    // Both tokens expired (the refresh token is still good): the app refreshes without asking anyone.
    const stale = await tamperTokens(page, { expire: true });
    const refreshes: string[] = [];
    page.on('request', (r) => {
      if (cognitoTarget(r).endsWith('GetTokensFromRefreshToken')) refreshes.push(r.url());
    });
    await page.goto('/admin');
    await expect(page.getByText(`Logged in as ${user.email}`)).toBeVisible();
    // The API accepts the token it was sent (a stale one would fail its signature check): credits load.
    await expect(page.getByRole('main').getByTestId('credit-balance')).toHaveText('10');
    expect(refreshes.length).toBeGreaterThan(0);
    expect(await storedIdToken(page)).not.toBe(stale);
  });

  test('when the session cannot be refreshed, the user is signed out and sent to /login with a message', async ({ page }) => {
    const user = await createVerifiedUser();
    await loginViaUi(page, user);
    await page.goto('/admin');
    await expect(page.getByText(`Logged in as ${user.email}`)).toBeVisible();

    await tamperTokens(page, { expire: true, refreshToken: 'revoked-refresh-token' });
    await page.goto('/admin');
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('alert')).toHaveText('Your session has expired. Please log in again.');
    await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
    expect(await storedIdToken(page)).toBeNull();

    await loginViaUi(page, user, { goto: false });
    await expect(page).toHaveURL(/\/admin$/);
  });

  test('a disabled account is signed out and sent to /login with a message', async ({ page }) => {
    const user = await createVerifiedUser();
    await loginViaUi(page, user);
    await page.goto('/admin');
    await expect(page.getByText(`Logged in as ${user.email}`)).toBeVisible();

    await disableUser(user.email);
    await page.reload();
    await expect(page).toHaveURL(/\/login$/);
    await expect(page.getByRole('alert')).toHaveText('Your account has been disabled. Please contact support.');
    expect(await storedIdToken(page)).toBeNull();

    await submitLogin(page, user);
    await expect(page.getByRole('alert')).toHaveText('Login error: This account has been disabled. Please contact support.');
  });

  test('marketing pages do not download Amplify or talk to Cognito; account pages do', async ({ page }) => {
    const urls: string[] = [];
    page.on('request', (r) => urls.push(r.url()));
    const amplify = (u: string) => /\/assets\/amplify-auth-[^/]+\.js$/.test(u) || u.includes('/_cognito');

    for (const path of ['/', '/terms']) {
      await page.goto(path);
      await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
    }
    await page.waitForLoadState('networkidle');
    expect(urls.filter(amplify)).toEqual([]);

    await page.goto('/login');
    await expect(page.getByRole('form', { name: 'Log in' })).toBeVisible();
    expect(urls.filter(amplify).length).toBeGreaterThan(0);
  });
});

test('logging out in one tab signs the other tabs out too', async ({ context }) => {
  const user = await createVerifiedUser();
  const first = await context.newPage();
  await loginViaUi(first, user);
  const second = await context.newPage();
  await second.goto('/admin');
  await expect(second.getByText(`Logged in as ${user.email}`)).toBeVisible();

  await first.getByRole('button', { name: 'Logout' }).click();
  await expect(first).toHaveURL(/\/login$/);
  await expect(second).toHaveURL(/\/login$/);
  await expect(second.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'Login' })).toBeVisible();
  // Nobody's session expired: no expiry notice.
  await expect(second.getByText('Your session has expired. Please log in again.')).toHaveCount(0);
});
