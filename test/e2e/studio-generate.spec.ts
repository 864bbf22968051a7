/**
 * The generator pages never leave the user guessing: a disabled Generate says why beside it, at a desktop and a phone
 * size, and the page stays axe clean with the reason shown.
 */
import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/a11y';
import { createVerifiedUser, loginViaUi, submitLogin } from './support/accounts';

for (const viewport of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 375, height: 812 },
]) {
  test(`a disabled Generate says why beside it (${viewport.name})`, async ({ page }) => {
    await loginViaUi(page, await createVerifiedUser());
    await page.setViewportSize(viewport);
    await page.goto('/video-generator/wan');
    const sidebar = page.getByRole('complementary', { name: 'Video settings' });
    const generate = sidebar.getByRole('button', { name: /^Generate Video/ });
    // The 10 welcome credits pay for 5 s (8 credits), not for 10 s (16).
    await sidebar.getByRole('radio', { name: /^5 seconds/ }).check();
    await expect(generate).toBeEnabled();
    await expect(sidebar.getByTestId('generate-blocked-reason')).toHaveCount(0);
    await sidebar.getByRole('radio', { name: /^10 seconds/ }).check();
    await expect(generate).toBeDisabled();
    const reason = sidebar.getByTestId('generate-blocked-reason');
    await expect(reason).toHaveText('Not enough credits: this costs 16 and you have 10. Buy credits or pick cheaper options.');
    await expect(reason).toBeVisible();
    await expect(generate).toHaveAccessibleDescription(/^Not enough credits: this costs 16/);
    await expectNoA11yViolations(page, { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'], label: 'video generator' });
  });
}

test('the keyboard hint shows where there is a keyboard and pointer, not on a touch phone', async ({ browser }, testInfo) => {
  const user = await createVerifiedUser();
  const desktop = await browser.newContext({ baseURL: testInfo.project.use.baseURL, viewport: { width: 1440, height: 900 } });
  const phone = await browser.newContext({ baseURL: testInfo.project.use.baseURL, viewport: { width: 375, height: 812 }, hasTouch: true, isMobile: true });
  for (const [context, shown] of [
    [desktop, true],
    [phone, false],
  ] as const) {
    const page = await context.newPage();
    await page.goto('/login');
    await submitLogin(page, user);
    await expect(page).toHaveURL(/\/generator$/);
    const hint = page.getByRole('complementary', { name: 'Image settings' }).getByText('Ctrl+Enter to generate');
    if (shown) await expect(hint).toBeVisible();
    else await expect(hint).toBeHidden();
    await context.close();
  }
});
