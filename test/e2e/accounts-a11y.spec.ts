import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './support/a11y';
import { createVerifiedUser, loginViaUi, submitLogin } from './support/accounts';

const expectNoViolations = (page: Page, what: string) =>
  expectNoA11yViolations(page, { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'], label: what });

for (const viewport of [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 375, height: 740 },
]) {
  test(`account pages are accessible and fit a ${viewport.name} screen`, async ({ page }) => {
    await page.setViewportSize(viewport);
    const noSideScroll = async () =>
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);

    for (const path of ['/login', '/signup', '/verify', '/reset-password', '/terms']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await expectNoViolations(page, path);
      await noSideScroll();
    }
    await page.goto('/signup');
    await page.getByRole('button', { name: 'Terms and Conditions' }).click();
    await expect(page.getByRole('dialog')).toBeVisible();
    await expectNoViolations(page, 'terms modal');

    const user = await createVerifiedUser();
    if (viewport.width < 768) {
      // The nav folds into the menu on phones.
      await page.goto('/login');
      await submitLogin(page, user);
      await expect(page).toHaveURL(/\/generator$/);
      await page.getByRole('button', { name: 'Open menu' }).click();
      await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
      await page.getByRole('navigation', { name: 'App' }).getByRole('link', { name: 'My Account' }).click();
    } else {
      await loginViaUi(page, user);
      await page.goto('/admin');
    }
    for (const tab of ['Previous Prompts', 'Change Password', 'My Payments', 'Buy Credits', 'Contact']) {
      await page.getByRole('tab', { name: tab }).click();
      await expect(page.getByRole('tab', { name: tab, selected: true })).toBeVisible();
      await expect(page.getByRole('tabpanel').getByRole('heading', { level: 2, name: tab })).toBeVisible();
      await expectNoViolations(page, `My Account > ${tab}`);
      await noSideScroll();
    }
  });
}
