/**
 * Edit and upscale from the viewer: each button shows its price, the job runs like any other, and its result appears
 * in the gallery saying what it was made from; axe clean.
 */
import { expect, test } from '@playwright/test';
import { expectNoA11yViolations } from './support/a11y';
import { createVerifiedUser, loginViaUi } from './support/accounts';
import { IMAGE_TIMEOUT, makeImages } from './support/generators';

for (const viewport of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 375, height: 812 },
]) {
  test(`edit and upscale an image from the viewer (${viewport.name})`, async ({ page }) => {
    await loginViaUi(page, await createVerifiedUser());
    await page.setViewportSize(viewport);
    await makeImages(page, ['operations quiet harbour']);
    await page.goto('/generator');

    // Edit: a prompt, its price, then the result shows what it was edited from.
    await page.getByRole('button', { name: 'Open full size: operations quiet harbour' }).click();
    let dialog = page.getByRole('dialog');
    const ops = dialog.getByRole('region', { name: 'Change this image' });
    await expect(ops.getByRole('button', { name: 'Edit · 2 credits' })).toBeVisible();
    await expect(ops.getByRole('button', { name: 'Upscale 2x · 1 credit' })).toBeVisible();
    await expectNoA11yViolations(page, { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'], label: 'viewer operations' });
    await ops.getByLabel('What to change').fill('make the harbour snowy');
    await ops.getByRole('button', { name: 'Edit · 2 credits' }).click();
    await expect(ops.getByRole('status')).toContainText('The edit started');
    await page.keyboard.press('Escape');
    const edited = page.getByRole('button', { name: 'Open full size: make the harbour snowy' });
    await expect(edited).toBeVisible({ timeout: IMAGE_TIMEOUT });
    await edited.click();
    dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('lightbox-model')).toHaveText('Edit by prompt');
    await expect(dialog.getByText('Edited from')).toBeVisible();
    await expect(dialog.getByTestId('lightbox-source')).toHaveText('operations quiet harbour');

    // Upscale the edited image 2x: the result keeps the prompt and says what it was upscaled from.
    await dialog.getByRole('button', { name: 'Upscale 2x · 1 credit' }).click();
    await expect(dialog.getByRole('status')).toContainText('The upscale started');
    await page.keyboard.press('Escape');
    await expect(page.getByRole('button', { name: 'Open full size: make the harbour snowy' })).toHaveCount(2, { timeout: IMAGE_TIMEOUT });
    await page.getByRole('button', { name: 'Open full size: make the harbour snowy' }).first().click();
    dialog = page.getByRole('dialog');
    await expect(dialog.getByText('Upscaled from')).toBeVisible();
    await expect(dialog.getByTestId('lightbox-source')).toHaveText('make the harbour snowy');
    await expect(dialog.getByRole('list', { name: 'Options' })).toContainText('Scale: 2x');
    await expectNoA11yViolations(page, { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'], label: 'upscaled result' });
  });
}
