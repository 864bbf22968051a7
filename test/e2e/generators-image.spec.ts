/**
 * The image generator end to end, as one signed-in user (10 welcome credits): generate with and without a start
 * image, resume after a reload, a failing job refunded, download, delete, and the results in My Account.
 */
import fs from 'node:fs';
import { expect, test, type Page } from '@playwright/test';
import { IMAGE_TIMEOUT, START_IMAGE, expectFitsWidth, sidebarBalance, shareSignedInPage } from './support/generators';
import { expectNoA11yViolations } from './support/a11y';

let page: Page;
shareSignedInPage((p) => {
  page = p;
});

const sidebar = () => page.getByRole('complementary', { name: 'Image settings' });
const generate = () => sidebar().getByRole('button', { name: 'Generate Image (1 Credit)' });
const preview = () => page.getByRole('region', { name: 'Preview' });
const gallery = () => page.getByRole('region', { name: 'Previous Images' });
const errorLine = () => sidebar().getByRole('alert').first();
/** The running jobs' tiles, at the top of the results. */
const running = () => page.getByRole('region', { name: 'Running' });

test('checks the prompt and the start image before spending anything', async () => {
  await page.goto('/generator');
  await expect(sidebarBalance(page)).toHaveText('10');
  await expect(preview().getByText('No image generated yet.')).toBeVisible();
  await generate().click();
  await expect(errorLine()).toHaveText('Please enter a prompt!');

  // A dropped file that is not an image.
  const notImage = await page.evaluateHandle(() => {
    const dt = new DataTransfer();
    dt.items.add(new File(['just text'], 'notes.txt', { type: 'text/plain' }));
    return dt;
  });
  await sidebar().getByTestId('start-image-dropzone').dispatchEvent('drop', { dataTransfer: notImage });
  await expect(errorLine()).toHaveText('Invalid file type or size. Image must be under 5MB.');
  await expect(sidebarBalance(page)).toHaveText('10');
  await expectNoA11yViolations(page);
});

/** [slow]: pushed results end a job as soon as the model does, and the first journey looks at it while it runs. */
const LIGHTHOUSE = '[slow] a lighthouse at dusk';

test('generates an image from a prompt: job line, overlay, preview, gallery, one credit', async () => {
  const prompt = LIGHTHOUSE;
  await sidebar().getByLabel('Prompt').fill(prompt);
  await generate().click();
  await expect(running().getByText(`Generating: ${prompt}...`)).toBeVisible();
  await expect(preview().getByText('Generating...')).toBeVisible();
  // A running job locks nothing (the queue): its row has its own Cancel.
  await expect(generate()).toBeEnabled();
  await expect(running().getByRole('button', { name: `Cancel ${prompt}` })).toBeVisible();
  await expect(sidebarBalance(page)).toHaveText('9');

  const image = preview().getByRole('img', { name: prompt });
  await expect(image).toBeVisible({ timeout: IMAGE_TIMEOUT });
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => img.naturalWidth)).toBe(768);
  await expect(preview().getByText('Generating...')).toHaveCount(0);
  await expect(running().getByText(/^Generating: /)).toHaveCount(0);
  await expect(gallery().getByRole('article', { name: prompt })).toBeVisible();
  await expect(generate()).toBeEnabled();
  await expect(sidebarBalance(page)).toHaveText('9');
});

test('generates from a start image picked from disk', async () => {
  await sidebar().getByLabel('Start image').setInputFiles(START_IMAGE);
  // The 1024x640 picture is brought to SDXL's 768 px on its long side before upload.
  await expect(sidebar().getByText(/768×480 px/)).toBeVisible();
  await sidebar().getByLabel('Prompt').fill('the same scene in watercolour');
  await generate().click();
  const image = preview().getByRole('img', { name: 'the same scene in watercolour' });
  await expect(image).toBeVisible({ timeout: IMAGE_TIMEOUT });
  // SDXL keeps the start image's proportions in img2img.
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([768, 480]);
  const card = gallery().getByRole('article', { name: 'the same scene in watercolour' });
  await expect(card.getByText(/from image/)).toBeVisible();
  await expect(sidebarBalance(page)).toHaveText('8');
  await sidebar().getByRole('button', { name: 'Remove start image' }).click();
});

test('a job still running when the page reloads resumes and finishes', async () => {
  await sidebar().getByLabel('Prompt').fill('[slow] harbour at night');
  await generate().click();
  await expect(running().getByText('Generating: [slow] harbour at night...')).toBeVisible();
  expect(await page.evaluate(() => JSON.parse(localStorage.getItem('activeJobs') ?? '[]').map((j: { prompt: string }) => j.prompt))).toEqual([
    '[slow] harbour at night',
  ]);

  await page.reload();
  await expect(running().getByText('Generating: [slow] harbour at night...')).toBeVisible();
  await expect(preview().getByText('Generating...')).toBeVisible();
  await expect(preview().getByRole('img', { name: '[slow] harbour at night' })).toBeVisible({ timeout: IMAGE_TIMEOUT });
  await expect(running().getByText(/^Generating: /)).toHaveCount(0);
  expect(await page.evaluate(() => localStorage.getItem('activeJobs'))).toBeNull();
  await expect(sidebarBalance(page)).toHaveText('7');
});

test('a failing job shows its error and the credit comes back', async () => {
  await sidebar().getByLabel('Prompt').fill('a storm [fail]');
  await generate().click();
  await expect(sidebarBalance(page)).toHaveText('6');
  await expect(errorLine()).toHaveText('Image generation failed. 1 credit refunded.', { timeout: IMAGE_TIMEOUT });
  await expect(sidebarBalance(page)).toHaveText('7');
  await expect(gallery().getByRole('article', { name: 'a storm [fail]' })).toHaveCount(0);
});

test('downloads an image as {prompt}-{timestamp}.png', async () => {
  const card = gallery().getByRole('article', { name: LIGHTHOUSE });
  const download = page.waitForEvent('download');
  await card.getByRole('link', { name: /^Download/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^slow a lighthouse at dusk-\d{13}\.png$/);
  const bytes = fs.readFileSync(await file.path());
  expect(bytes.subarray(1, 4).toString()).toBe('PNG');
});

test('deletes an image after confirming, for good', async () => {
  const card = gallery().getByRole('article', { name: LIGHTHOUSE });
  await card.getByRole('button', { name: /^Delete/ }).click();
  const dialog = page.getByRole('dialog', { name: 'Delete this image?' });
  const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes('/api/media/'));
  await dialog.getByRole('button', { name: 'Delete' }).click();
  // Gone from the screen at once, then on the server.
  await expect(card).toHaveCount(0);
  expect((await deleted).status()).toBe(204);
  await page.reload();
  await expect(gallery().getByRole('article', { name: 'the same scene in watercolour' })).toBeVisible();
  await expect(gallery().getByRole('article', { name: LIGHTHOUSE })).toHaveCount(0);
  // The preview defaults to the newest image left.
  await expect(preview().getByRole('img', { name: '[slow] harbour at night' })).toBeVisible();
});

test('fits a 375 px phone screen', async () => {
  await expectFitsWidth(page, 375);
  await expect(generate()).toBeVisible();
  await page.setViewportSize({ width: 1280, height: 720 });
});

test('My Account lists the images under Previous Prompts, newest first', async () => {
  await page.getByRole('link', { name: 'My Account' }).click();
  const panel = page.getByRole('tabpanel');
  await expect(panel.getByRole('article')).toHaveCount(2);
  await expect(panel.getByRole('article').first()).toHaveAccessibleName('[slow] harbour at night');
  await expect(panel.getByRole('article').nth(1)).toHaveAccessibleName('the same scene in watercolour');
});
