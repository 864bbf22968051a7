/**
 * Phone-first at 375x812: Generate is on the first screen of the image and video generators, and My Payments' tables
 * become cards that fit the screen. Axe clean.
 */
import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/a11y';
import { createVerifiedUser, submitLogin } from './support/accounts';

const PHONE = { width: 375, height: 812 };
const TAGS = { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] };

test('Generate is reachable without scrolling; payments are cards that fit (375x812)', async ({ page }) => {
  await page.setViewportSize(PHONE);
  await page.goto('/login');
  await submitLogin(page, await createVerifiedUser());
  await expect(page).toHaveURL(/\/generator$/);

  for (const [path, settings, name] of [
    ['/generator', 'Image settings', /^Generate Image/],
    ['/video-generator/wan', 'Video settings', /^Generate Video/],
    ['/video-generator/pixverse', 'Video settings', /^Generate Video/],
  ] as const) {
    await page.goto(path);
    const generate = page.getByRole('complementary', { name: settings }).getByRole('button', { name });
    await expect(generate).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    const box = (await generate.boundingBox())!;
    expect(box.y).toBeGreaterThanOrEqual(0);
    expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
    await expectNoA11yViolations(page, { ...TAGS, label: path });
  }

  await page.goto('/admin?tab=my-payments');
  const ledger = page.getByRole('table', { name: 'Credit history' });
  await expect(ledger).toBeVisible();
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
  // The welcome credits' row, as a card: each value beside its column's name.
  const row = ledger.getByRole('row').last();
  expect((await row.boundingBox())!.width).toBeLessThanOrEqual(PHONE.width);
  await expectNoA11yViolations(page, { ...TAGS, label: 'my payments' });
});
