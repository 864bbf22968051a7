/**
 * Generator options in Chromium, rendered from the model registry: a 16:9 image at its real size, four images for
 * four credits, each with its own "Seed: N", the same seed twice giving the same picture, and a vertical Pixverse clip.
 */
import { createHash } from 'node:crypto';
import { expect, test, type Page } from '@playwright/test';
import { IMAGE_TIMEOUT, VIDEO_TIMEOUT, buyCredits, sidebarBalance, shareSignedInPage, videoFacts } from './support/generators';

let page: Page;
shareSignedInPage((p) => {
  page = p;
});

const imageSidebar = () => page.getByRole('complementary', { name: 'Image settings' });
const preview = () => page.getByRole('region', { name: 'Preview' });
const gallery = () => page.getByRole('region', { name: 'Previous Images' });
const advanced = () => imageSidebar().getByRole('button', { name: 'Advanced' });

/** The hash of a PNG's image data (its IDAT chunks): each file carries its own signed content credentials. */
async function imageHash(src: string): Promise<string> {
  const res = await page.request.get(src);
  const png = await res.body();
  const hash = createHash('sha256');
  for (let at = 8; at + 8 <= png.length; ) {
    const length = png.readUInt32BE(at);
    if (png.toString('latin1', at + 4, at + 8) === 'IDAT') hash.update(png.subarray(at + 8, at + 8 + length));
    at += 12 + length;
  }
  return hash.digest('hex');
}

test('the default screen stays simple: aspect ratio in view, the rest under Advanced, one image for one credit', async () => {
  await page.goto('/generator');
  await expect(imageSidebar().getByLabel('Aspect ratio')).toHaveValue('1:1');
  await expect(imageSidebar().getByLabel('Seed')).toBeHidden();
  await expect(imageSidebar().getByRole('button', { name: 'Generate Image (1 Credit)' })).toBeVisible();
  await advanced().click();
  await expect(imageSidebar().getByLabel('Negative prompt')).toBeVisible();
  await imageSidebar().getByLabel('Images').selectOption('4');
  await expect(imageSidebar().getByRole('button', { name: 'Generate 4 Images (4 Credits)' })).toBeVisible();
  await imageSidebar().getByLabel('Images').selectOption('1');
});

test('a 16:9 image comes out 1024x576 and shows its seed', async () => {
  await imageSidebar().getByLabel('Aspect ratio').selectOption('16:9');
  await imageSidebar().getByLabel('Prompt', { exact: true }).fill('a wide harbour');
  await imageSidebar().getByRole('button', { name: 'Generate Image (1 Credit)' }).click();
  const image = preview().getByRole('img', { name: 'a wide harbour' });
  await expect(image).toBeVisible({ timeout: IMAGE_TIMEOUT });
  await expect.poll(() => image.evaluate((img: HTMLImageElement) => [img.naturalWidth, img.naturalHeight])).toEqual([1024, 576]);
  await expect(preview().getByTestId('result-seed')).toHaveText(/^Seed: \d+$/);
  await expect(sidebarBalance(page)).toHaveText('9');
});

test('four images for four credits, each with its own seed (one after another)', async () => {
  await imageSidebar().getByLabel('Images').selectOption('4');
  await imageSidebar().getByLabel('Prompt', { exact: true }).fill('four foxes');
  await imageSidebar().getByRole('button', { name: 'Generate 4 Images (4 Credits)' }).click();
  await expect(sidebarBalance(page)).toHaveText('5');
  await expect(gallery().getByRole('article', { name: 'four foxes' })).toHaveCount(4, { timeout: IMAGE_TIMEOUT });
  const seeds = await gallery().getByRole('article', { name: 'four foxes' }).getByTestId('media-seed').allTextContents();
  expect(seeds).toHaveLength(4);
  for (const s of seeds) expect(s).toMatch(/^Seed: \d+$/);
  // Each image was its own prediction: its seed makes it again.
  const numbers = seeds.map((s) => Number(s.slice('Seed: '.length))).sort((a, b) => a - b);
  expect(numbers.map((n) => n - numbers[0]!)).toEqual([0, 1, 2, 3]);
  await expect(sidebarBalance(page)).toHaveText('5');
  await imageSidebar().getByLabel('Images').selectOption('1');
});

test('the same seed twice gives the same image', async () => {
  await imageSidebar().getByLabel('Aspect ratio').selectOption('1:1');
  await imageSidebar().getByLabel('Seed').fill('777');
  const hashes: string[] = [];
  for (const n of [1, 2]) {
    await imageSidebar().getByLabel('Prompt', { exact: true }).fill('a seeded teapot');
    await imageSidebar().getByRole('button', { name: 'Generate Image (1 Credit)' }).click();
    await expect(gallery().getByRole('article', { name: 'a seeded teapot' })).toHaveCount(n, { timeout: IMAGE_TIMEOUT });
    await expect(preview().getByTestId('result-seed')).toHaveText('Seed: 777');
    const src = await gallery().getByRole('article', { name: 'a seeded teapot' }).first().locator('img').getAttribute('src');
    hashes.push(await imageHash(src!));
  }
  expect(hashes[0]).toBe(hashes[1]);
  await expect(sidebarBalance(page)).toHaveText('3');
});

test('a vertical Pixverse clip is taller than wide', async () => {
  await page.goto('/video-generator/pixverse');
  await buyCredits(page, 72);
  await page.goto('/video-generator/pixverse');
  const sidebar = page.getByRole('complementary', { name: 'Video settings' });
  await sidebar.getByRole('radio', { name: /^540p/ }).check();
  await sidebar.getByLabel('Aspect ratio').selectOption('9:16');
  await sidebar.getByRole('button', { name: 'Advanced' }).click();
  await sidebar.getByLabel('Style').selectOption('anime');
  await sidebar.getByLabel('Prompt', { exact: true }).fill('a tall waterfall');
  await sidebar.getByRole('button', { name: 'Generate Video (6 Credits)' }).click();
  const video = page.getByTestId('video-preview');
  await expect(video).toHaveAttribute('aria-label', 'Preview: a tall waterfall', { timeout: VIDEO_TIMEOUT });
  const facts = await videoFacts(video);
  expect(facts.width).toBeLessThan(facts.height);
  expect(facts.width).toBe(540);
});
