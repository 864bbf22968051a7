/**
 * My Account's gallery searched by prompt words (every word, any case), combined with the other filters, at a desktop
 * and a phone size, axe clean.
 */
import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/a11y';
import { createVerifiedUser, loginViaUi } from './support/accounts';
import { makeImages } from './support/generators';

for (const viewport of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 375, height: 812 },
]) {
  test(`search results by prompt words (${viewport.name})`, async ({ page }) => {
    await loginViaUi(page, await createVerifiedUser());
    await page.setViewportSize(viewport);
    await makeImages(page, ['A lighthouse at dusk', 'Dusk over a red harbour', 'A red kite']);
    await page.goto('/admin?tab=previous-prompts');
    const cards = page.getByTestId('media-card');
    await expect(cards).toHaveCount(3);

    const search = page.getByRole('searchbox', { name: 'Search' });
    await search.fill('dusk');
    await expect(cards).toHaveCount(2);
    await search.fill('RED dusk');
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText('Dusk over a red harbour');
    await search.fill('nothing like this');
    await expect(page.getByText('Nothing matches these filters.')).toBeVisible();
    await expectNoA11yViolations(page, { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'], label: 'gallery search' });
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await search.fill('');
    await expect(cards).toHaveCount(3);
  });
}
