/**
 * A visitor who never signed in on this browser is offered Sign up, not Log in, from Start Creating and Go To App (Buy
 * goes the same way: pricing-buy.spec); Log in from there still returns to the page asked for. A browser that signed
 * in once is offered Log in. At a desktop and a phone size, axe clean.
 */
import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/a11y';
import { createVerifiedUser, submitLogin } from './support/accounts';

for (const viewport of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 375, height: 812 },
]) {
  test(`a new visitor lands on Sign up from Start Creating and Go To App (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/');
    await page.getByRole('main').getByRole('link', { name: 'Start Creating' }).click();
    await expect(page).toHaveURL(/\/signup$/);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Create your account');
    await expectNoA11yViolations(page, { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'], label: 'sign up' });

    await page.goto('/features');
    if (viewport.width < 768) await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('link', { name: 'Go To App' }).click();
    await expect(page).toHaveURL(/\/signup$/);

    // Someone with an account on a new browser: Log in from Sign up returns to the app page asked for.
    await page.getByRole('link', { name: 'Log in' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await submitLogin(page, await createVerifiedUser());
    await expect(page).toHaveURL(/\/generator$/);

    // This browser has signed in: signed out, the same button leads to Log in.
    if (viewport.width < 768) await page.getByRole('button', { name: 'Open menu' }).click();
    await page.getByRole('button', { name: 'Logout' }).click();
    await expect(page).toHaveURL(/\/login$/);
    await page.goto('/');
    await page.getByRole('main').getByRole('link', { name: 'Start Creating' }).click();
    await expect(page).toHaveURL(/\/login$/);
  });
}
