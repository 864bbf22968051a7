/**
 * "Download selected" makes one zip of any selection, images included, after the gallery and the viewer have shown
 * them: the browser's cached copies of the presigned URLs must be ones the zip's fetch may read. At a desktop and a
 * phone size, with axe on the gallery.
 */
import { expect, test } from '@playwright/test';
import fs from 'node:fs';
import { expectNoA11yViolations } from './support/a11y';
import { createVerifiedUser, loginViaUi } from './support/accounts';
import { makeImages } from './support/generators';

/** The entries' names: each central directory header (PK\x01\x02) has the name's length at +28 and the name at +46. */
function zipNames(bytes: Buffer): string[] {
  const names: string[] = [];
  for (let i = bytes.indexOf('PK\x01\x02'); i >= 0; i = bytes.indexOf('PK\x01\x02', i + 4)) {
    names.push(bytes.subarray(i + 46, i + 46 + bytes.readUInt16LE(i + 28)).toString('utf8'));
  }
  return names;
}

for (const viewport of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 375, height: 812 },
]) {
  test(`zip of images the gallery and the viewer already showed (${viewport.name})`, async ({ page }) => {
    await loginViaUi(page, await createVerifiedUser());
    // Signed in first: on a phone the Logout that tells the sign-in is done sits in the folded menu.
    await page.setViewportSize(viewport);
    await makeImages(page, ['zip amber dune', 'zip violet reef']);
    await page.goto('/admin?tab=previous-prompts');
    const cards = page.getByTestId('media-card');
    await expect(cards).toHaveCount(2);
    // Every thumbnail has loaded (so the browser holds each URL in its cache) before the zip asks for them.
    for (const img of await cards.locator('img').all()) {
      await img.scrollIntoViewIfNeeded();
      await expect(img).toHaveJSProperty('complete', true);
      expect(await img.evaluate((i: HTMLImageElement) => i.naturalWidth)).toBeGreaterThan(0);
    }
    await page.getByRole('button', { name: 'Open full size: zip violet reef' }).click();
    await expect(page.getByRole('dialog').getByTestId('lightbox-media')).toHaveJSProperty('complete', true);
    await page.keyboard.press('Escape');
    await expectNoA11yViolations(page, { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'], label: 'gallery' });

    await page.getByRole('checkbox', { name: /^Select all/ }).check();
    const download = page.waitForEvent('download', { timeout: 30_000 });
    await page.getByRole('button', { name: 'Download selected' }).click();
    const bytes = fs.readFileSync(await (await download).path());
    await expect(page.getByText(/Could not make the zip/)).toHaveCount(0);
    const names = zipNames(bytes);
    expect(names).toHaveLength(2);
    expect(names.every((n) => n.endsWith('.png'))).toBe(true);
    expect(names.some((n) => n.startsWith('zip amber dune-'))).toBe(true);
    // Each entry is a whole PNG (stored as written: its signature follows the local header).
    expect(bytes.indexOf(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBeGreaterThan(0);
  });
}
