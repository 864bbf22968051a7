import { expect, test } from '@playwright/test';

test('the landing page reads its runtime config once the visitor acts on it, and renders', async ({ page }) => {
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  // A public page loads the app (and then the configuration) on the visitor's first sign of intent (main.ts).
  const config = page.waitForResponse((r) => r.url().endsWith('/config.json'));
  await page.mouse.move(10, 10);
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
