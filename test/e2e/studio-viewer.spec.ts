/**
 * The viewer: near full-screen, zoom and pan on images, next and previous, details in plain words (with the credits
 * the result cost), every action on one bar that wraps inside the screen, at a desktop and a phone size, axe clean.
 */
import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/a11y';
import { createVerifiedUser, loginViaUi } from './support/accounts';
import { makeImages } from './support/generators';

for (const viewport of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 375, height: 812 },
]) {
  test(`the viewer fills the screen, zooms, moves and tells how a result was made (${viewport.name})`, async ({ page }) => {
    await loginViaUi(page, await createVerifiedUser());
    await page.setViewportSize(viewport);
    await makeImages(page, ['viewer first harbour', 'viewer second orchard'], { aspectRatio: '16:9' });
    await page.goto('/admin?tab=previous-prompts');
    await page.getByRole('button', { name: 'Open full size: viewer second orchard' }).click();
    const dialog = page.getByRole('dialog');
    const media = dialog.getByTestId('lightbox-media');
    await expect(media).toHaveJSProperty('complete', true);
    expect((await dialog.boundingBox())!.width).toBeGreaterThanOrEqual(viewport.width * 0.9);
    if (viewport.width > 1000) expect((await media.boundingBox())!.width).toBeGreaterThan(900);

    // Details in plain words.
    await expect(dialog.getByTestId('lightbox-model')).toHaveText('SDXL');
    await expect(dialog.getByRole('list', { name: 'Options' })).toContainText('Aspect ratio: 16:9');
    await expect(dialog).not.toContainText('Count:');
    await expect(dialog).toContainText(/\d+ × \d+ px/);
    await expect(dialog.getByTestId('lightbox-credits')).toHaveText(/^\d+ credits?$/);

    // Every action on one bar, each with its name, none past the screen's edge.
    const bar = dialog.getByRole('group', { name: 'Actions' });
    for (const name of ['Download image: viewer second orchard', 'Add to favourites', 'Share', 'Add to collection', 'Delete', /^Upscale 2x/, /^Variation/, /^Edit ·/]) {
      await expect(bar.getByRole('button', { name, exact: typeof name === 'string' }).or(bar.getByRole('link', { name, exact: typeof name === 'string' }))).toBeVisible();
    }
    for (const name of ['Use as start image', 'Use prompt', 'Use settings']) await expect(bar.getByRole('link', { name })).toBeVisible();
    const controls = bar.locator('a, button, input');
    for (let i = 0; i < (await controls.count()); i++) {
      const box = (await controls.nth(i).boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
    }
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(viewport.width);
    await expectNoA11yViolations(page, { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'], label: 'viewer' });

    // Zoom in and out.
    const zoom = dialog.getByRole('button', { name: 'Zoom in' });
    await zoom.click();
    await expect(dialog.getByRole('button', { name: 'Zoom out' })).toHaveAttribute('aria-pressed', 'true');
    await expect(media).toHaveCSS('transform', /matrix\(2, 0, 0, 2/);
    await dialog.getByRole('button', { name: 'Zoom out' }).click();
    await expect(media).toHaveCSS('transform', 'none');

    // Next and previous.
    await dialog.getByRole('button', { name: 'Next' }).click();
    await expect(dialog.getByTestId('lightbox-prompt')).toHaveText('viewer first harbour');
    await dialog.getByRole('button', { name: 'Previous' }).click();
    await expect(dialog.getByTestId('lightbox-prompt')).toHaveText('viewer second orchard');
  });
}
