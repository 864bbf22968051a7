/**
 * My Account's gallery searched by prompt words (every word, any case), combined with the other filters, at a desktop
 * and a phone size, axe clean.
 */
import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './support/a11y';
import { baseUrl, createVerifiedUser, loginViaUi, storedIdToken } from './support/accounts';

async function makeImages(page: Page, prompts: readonly string[]): Promise<void> {
  const token = await storedIdToken(page);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (const prompt of prompts) {
    const res = await fetch(`${baseUrl()}/api/generate-image`, { method: 'POST', headers, body: JSON.stringify({ prompt }) });
    expect(res.status).toBe(200);
    const { predictionId } = (await res.json()) as { predictionId: string };
    await expect
      .poll(async () => ((await (await fetch(`${baseUrl()}/api/check-status/${predictionId}`, { headers })).json()) as { status: string }).status, { timeout: 30_000 })
      .toBe('succeeded');
  }
}

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
