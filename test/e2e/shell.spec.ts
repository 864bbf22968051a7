import { expect, test } from '@playwright/test';

test('the app shell loads its runtime config and renders the landing page', async ({ page }) => {
  const config = page.waitForResponse((r) => r.url().endsWith('/config.json'));
  await page.goto('/');
  expect((await config).status()).toBe(200);
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Start Creating' })).toHaveAttribute('href', '/generator');
  await expect(page.getByText(`© ${new Date().getFullYear()}`)).toBeVisible();
});

test('an unknown path shows the not-found page inside the app layout', async ({ page }) => {
  await page.goto('/no-such-page');
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
  await expect(page.getByRole('link', { name: 'Login' })).toBeVisible();
});
