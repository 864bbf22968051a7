/**
 * Pixverse v4.5 end to end at each quality, as one signed-in user who buys a pack first: each clip costs what the
 * button said and comes out at the chosen height and length; a failing job is refunded.
 */
import { expect, test, type Page } from '@playwright/test';
import { VIDEO_TIMEOUT, buyCredits, expectFitsWidth, sidebarBalance, shareSignedInPage, videoFacts } from './support/generators';
import { expectNoA11yViolations } from './support/a11y';

let page: Page;
shareSignedInPage((p) => {
  page = p;
});

test.beforeAll(async () => {
  await page.goto('/video-generator/pixverse');
  await buyCredits(page, 72);
  await page.goto('/video-generator/pixverse');
  await expect(sidebarBalance(page)).toHaveText('82');
});

const sidebar = () => page.getByRole('complementary', { name: 'Video settings' });
const generate = () => sidebar().getByRole('button', { name: /^Generate Video/ });
const previewVideo = () => page.getByTestId('video-preview');
const gallery = () => page.getByRole('region', { name: 'Previous Videos' });

const runs = [
  { quality: '540p', seconds: 5, cost: 6, balance: 76 },
  { quality: '720p', seconds: 8, cost: 18, balance: 58 },
  { quality: '1080p', seconds: 5, cost: 12, balance: 46 },
] as const;

for (const run of runs) {
  test(`${run.quality}, ${run.seconds} s costs ${run.cost} credits and renders at ${run.quality}`, async () => {
    const prompt = `neon city at ${run.quality}`;
    await sidebar().getByRole('radio', { name: new RegExp(`^${run.seconds} seconds`) }).check();
    await sidebar().getByRole('radio', { name: new RegExp(`^${run.quality}`) }).check();
    await expect(generate()).toHaveText(`Generate Video (${run.cost} Credits)`);
    await sidebar().getByLabel('Prompt').fill(prompt);
    await generate().click();
    await expect(sidebarBalance(page)).toHaveText(String(run.balance));
    await expect(previewVideo()).toHaveAttribute('aria-label', `Preview: ${prompt}`, { timeout: VIDEO_TIMEOUT });
    const facts = await videoFacts(previewVideo());
    expect(facts.height).toBe(Number.parseInt(run.quality, 10));
    expect(Math.abs(facts.duration - run.seconds)).toBeLessThan(0.6);
    await expect(gallery().getByRole('article', { name: prompt })).toContainText(`Pixverse v4.5 · ${run.seconds} s · ${run.quality}`);
    await expect(sidebarBalance(page)).toHaveText(String(run.balance));
  });
}

test('1080p is offered only at 5 s', async () => {
  await sidebar().getByRole('radio', { name: /^1080p/ }).check();
  await expect(sidebar().getByRole('radio', { name: /^8 seconds/ })).toBeDisabled();
  await sidebar().getByRole('radio', { name: /^720p/ }).check();
  await sidebar().getByRole('radio', { name: /^8 seconds/ }).check();
  await expect(sidebar().getByRole('radio', { name: /^1080p/ })).toBeDisabled();
  await expect(sidebar().getByText('1080p is available only for 5-second clips.')).toBeVisible();
  await expectNoA11yViolations(page);
  await expectFitsWidth(page, 375);
  await page.setViewportSize({ width: 1280, height: 720 });
});

test('a failing video shows its error and the credits come back', async () => {
  await sidebar().getByRole('radio', { name: /^5 seconds/ }).check();
  await sidebar().getByRole('radio', { name: /^540p/ }).check();
  await sidebar().getByLabel('Prompt').fill('a storm [fail]');
  await generate().click();
  await expect(sidebarBalance(page)).toHaveText('40');
  await expect(sidebar().getByRole('alert').first()).toHaveText('Video generation failed. 6 credits refunded.', { timeout: VIDEO_TIMEOUT });
  await expect(sidebarBalance(page)).toHaveText('46');
  await expect(page.getByRole('dialog')).toHaveCount(0);
});
