/**
 * My Account's gallery: the lightbox with the keyboard, favourites and the Favourites filter, multi-select delete, one
 * zip of the selection, share links seen signed out and revoked, and deleting the account with the password.
 */
import { expect, test, type Page } from '@playwright/test';
import fs from 'node:fs';
import { expectNoA11yViolations } from './support/a11y';
import { baseUrl, createVerifiedUser, loginViaUi, submitLogin, type E2EUser } from './support/accounts';
import { makeImages } from './support/generators';

async function galleryWith(page: Page, user: E2EUser, prompts: readonly string[]) {
  await loginViaUi(page, user);
  await makeImages(page, prompts);
  await page.goto('/admin?tab=previous-prompts');
  const cards = page.getByTestId('media-card');
  await expect(cards).toHaveCount(prompts.length);
  return cards;
}

/** How many files a zip holds: its central directory has one header (PK\x01\x02) per entry. */
function zipEntries(bytes: Buffer): number {
  let n = 0;
  for (let i = bytes.indexOf('PK\x01\x02'); i >= 0; i = bytes.indexOf('PK\x01\x02', i + 4)) n++;
  return n;
}

test.describe('My Account gallery', () => {
  test('lightbox: opens full size, moves with the arrows, shows how it was made, closes with Escape back on the card', async ({ page }) => {
    const user = await createVerifiedUser();
    await galleryWith(page, user, ['first red fox', 'second blue whale', 'third green owl']);
    const opener = page.getByRole('button', { name: 'Open full size: second blue whale' });
    await opener.click();
    const dialog = page.getByRole('dialog');
    await expect(dialog.getByTestId('lightbox-prompt')).toHaveText('second blue whale');
    await expect(dialog.getByTestId('lightbox-model')).toHaveText('SDXL');
    await expect(dialog).toContainText(/Seed: \d+/);
    await expect(dialog.getByRole('link', { name: 'Use prompt' })).toHaveAttribute('href', /^\/generator\?reuse=.+&use=prompt$/);
    await expect(dialog.getByRole('link', { name: 'Use as start image' })).toHaveAttribute('href', /^\/video-generator\/[a-z0-9-]+\?startMedia=/);
    await expect(dialog.getByTestId('lightbox-media')).toHaveJSProperty('complete', true);
    // Newest first: right goes to the older one, left back and around.
    await page.keyboard.press('ArrowRight');
    await expect(dialog.getByTestId('lightbox-prompt')).toHaveText('first red fox');
    await page.keyboard.press('ArrowLeft');
    await page.keyboard.press('ArrowLeft');
    await expect(dialog.getByTestId('lightbox-prompt')).toHaveText('third green owl');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    await expect(opener).toBeFocused();
  });

  test('favourites: a star on a card, and the Favourites filter lists only starred results', async ({ page }) => {
    const user = await createVerifiedUser();
    const cards = await galleryWith(page, user, ['plain lake', 'starred mountain']);
    const starred = cards.filter({ hasText: 'starred mountain' });
    await starred.getByRole('button', { name: 'Add to favourites' }).click();
    await expect(starred.getByRole('button', { name: 'Remove from favourites' })).toHaveAttribute('aria-pressed', 'true');
    await page.getByRole('checkbox', { name: 'Favourites' }).check();
    await expect(cards).toHaveCount(1);
    await expect(cards.first()).toContainText('starred mountain');
    await page.reload();
    await expect(page.getByTestId('media-card').filter({ hasText: 'starred mountain' }).getByRole('button', { name: 'Remove from favourites' })).toBeVisible();
  });

  test('multi-select: one zip of the selection, then delete the selection', async ({ page }) => {
    const user = await createVerifiedUser();
    const cards = await galleryWith(page, user, ['zip one', 'zip two', 'zip three']);
    await page.getByRole('checkbox', { name: /^Select all/ }).check();
    await expect(page.getByText('3 selected')).toBeVisible();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Download selected' }).click();
    const file = await (await download).path();
    const bytes = fs.readFileSync(file);
    expect(bytes.subarray(0, 2).toString()).toBe('PK');
    expect(zipEntries(bytes)).toBe(3);

    await page.getByRole('checkbox', { name: /^Select all/ }).uncheck();
    await cards.filter({ hasText: 'zip one' }).getByRole('checkbox').check();
    await cards.filter({ hasText: 'zip three' }).getByRole('checkbox').check();
    await page.getByRole('button', { name: 'Delete selected' }).click();
    await page.getByRole('dialog', { name: 'Delete 2 items?' }).getByRole('button', { name: 'Delete' }).click();
    await expect(page.getByText('Deleted 2 items.')).toBeVisible();
    await expect(cards).toHaveCount(1);
    await page.reload();
    await expect(page.getByTestId('media-card')).toHaveCount(1);
    await expect(page.getByTestId('media-card')).toContainText('zip two');
  });

  test('share: a link anyone can open signed out shows the image without the prompt; revoked it is a 404 page', async ({ page, browser }) => {
    const user = await createVerifiedUser();
    const cards = await galleryWith(page, user, ['a lighthouse to share']);
    await page.getByRole('button', { name: 'Open full size: a lighthouse to share' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByRole('button', { name: 'Share' }).click();
    const link = dialog.getByTestId('share-url');
    await expect(link).toHaveText(/\/s\/[A-Za-z0-9_-]{22}$/);
    const url = (await link.textContent())!;
    await page.keyboard.press('Escape');
    await expect(cards.first().getByTestId('shared-badge')).toBeVisible();

    const visitor = await browser.newContext();
    const seen = await visitor.newPage();
    const answer = await seen.goto(url);
    expect(answer?.status()).toBe(200);
    const image = seen.locator('img.media');
    await expect(image).toBeVisible();
    await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    await expect(seen.locator('body')).not.toContainText('a lighthouse to share');
    await expect(seen.locator('meta[property="og:image"]')).toHaveAttribute('content', `${url}/media`);

    await page.getByRole('button', { name: 'Open full size: a lighthouse to share' }).click();
    await dialog.getByRole('button', { name: 'Stop sharing' }).click();
    await expect(dialog.getByRole('button', { name: 'Share' })).toBeVisible();
    const gone = await seen.goto(url);
    expect(gone?.status()).toBe(404);
    await expect(seen.getByRole('heading', { name: 'Page not found' })).toBeVisible();
    await visitor.close();
  });

  test('delete account: a wrong password is refused, the right one deletes it, signs out and the login then fails', async ({ page }) => {
    const user = await createVerifiedUser();
    await galleryWith(page, user, ['soon gone']);
    await page.getByRole('tab', { name: 'Delete Account' }).click();
    await page.getByRole('button', { name: 'Delete account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete your account?' });
    await dialog.getByLabel(/^Password/).fill('Wr0ngPassword');
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(dialog.getByRole('alert')).toContainText('Your password could not be confirmed');
    // Still signed in.
    await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();

    await dialog.getByLabel(/^Password/).fill(user.password);
    await dialog.getByRole('button', { name: 'Delete my account' }).click();
    await expect(page).toHaveURL(`${baseUrl()}/account-deleted`);
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Your account is deleted');
    await expect(page.getByRole('main')).toContainText('Your account and all its data have been deleted');
    await expect(page.getByRole('main')).toContainText('Records of your purchases are kept for accounting');
    await expectNoA11yViolations(page);

    await page.goto('/login');
    await submitLogin(page, user);
    await expect(page.getByRole('alert')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Logout' })).toBeHidden();
  });
});
