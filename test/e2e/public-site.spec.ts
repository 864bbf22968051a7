/**
 * The prerendered public pages in Chromium against the production build: they hydrate without a console error,
 * move between each other and into the app without a reload, and an unknown path answers 404 with the not-found page.
 */
import { expect, test } from '@playwright/test';
import { PUBLIC_PAGE_SOURCES } from '../../contract/site';

const mark = (page: import('@playwright/test').Page) => page.evaluate(() => Object.assign(window, { __noReload: true }));
const stillSameDocument = (page: import('@playwright/test').Page) =>
  page.evaluate(() => (window as Window & { __noReload?: boolean }).__noReload === true);

for (const path of Object.keys(PUBLIC_PAGE_SOURCES)) {
  test(`${path} hydrates without console errors`, async ({ page }) => {
    const errors: string[] = [];
    page.on('console', (m) => {
      if (m.type() === 'error') errors.push(m.text());
    });
    page.on('pageerror', (e) => errors.push(e.message));
    const response = await page.goto(path);
    expect(response?.status()).toBe(200);
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
    // The h1 is in the HTML before any script runs; wait for the scripts, then a click on the nav must be answered by
    // the hydrated router without loading a document.
    await page.waitForLoadState('networkidle');
    await mark(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQ' }).click();
    await expect(page).toHaveURL(/\/faq$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently asked questions');
    expect(await stillSameDocument(page)).toBe(true);
    expect(errors).toEqual([]);
  });
}

test('a link into the app opens it without a reload', async ({ page }) => {
  await page.goto('/pricing');
  await page.waitForLoadState('networkidle');
  await mark(page);
  await page.getByRole('link', { name: 'Go To App' }).first().click();
  // This browser never signed in: the app's guard offers Sign up first.
  await expect(page).toHaveURL(/\/signup$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your account');
  expect(await stillSameDocument(page)).toBe(true);
});

test('an unknown path answers 404 with the not-found page', async ({ page }) => {
  const response = await page.goto('/no-such-page');
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page not found');
});

test("a directly opened /terms names the support address, and keeps it after hydration", async ({ page }) => {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  // The deployment's address, as the app reads it.
  const { supportEmail } = (await (await page.request.get('/config.json')).json()) as { supportEmail: string };
  // Before any script: the page as served.
  expect(await (await page.request.get('/terms')).text()).toContain(`href="mailto:${supportEmail}"`);
  await page.goto('/terms');
  await page.waitForLoadState('networkidle');
  await expect(page.getByRole('link', { name: supportEmail })).toHaveAttribute('href', `mailto:${supportEmail}`);
  expect(errors).toEqual([]);
});

test("the app's configuration failing after a public page was hydrated shows its own message", async ({ page }) => {
  await page.route('**/config.json', (route) => route.fulfill({ status: 503, body: 'unavailable' }));
  await page.goto('/pricing');
  await page.waitForLoadState('networkidle');
  await page.getByRole('link', { name: 'Go To App' }).first().click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Framewright could not start');
  await expect(page.getByText('The app configuration could not be loaded. Please try again in a moment.')).toBeVisible();
  await expect(page.getByRole('alert')).toContainText('Could not load /config.json (HTTP 503).');
});
