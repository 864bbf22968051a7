/**
 * The chooser and Wan 2.1 end to end, as one signed-in user who buys a pack first: text-to-video and
 * image-to-video, progress in the loading modal, resume after a reload, download, delete, My Account, and Kling 2.1
 * from a start to an end image.
 */
import fs from 'node:fs';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { START_IMAGE, VIDEO_TIMEOUT, buyCredits, sidebarBalance, shareSignedInPage, videoFacts } from './support/generators';
import { expectNoA11yViolations } from './support/a11y';

let page: Page;
shareSignedInPage((p) => {
  page = p;
});

const sidebar = () => page.getByRole('complementary', { name: 'Video settings' });
const generate = () => sidebar().getByRole('button', { name: /^Generate Video/ });
/** The running jobs' tiles, at the top of the results. */
const running = () => page.getByRole('region', { name: 'Running' });
const gallery = () => page.getByRole('region', { name: 'Previous Videos' });
const previewVideo = () => page.getByTestId('video-preview');
const modal = () => page.getByRole('dialog', { name: 'Generating your video' });

test('the chooser offers Wan, Pixverse and Kling 2.1', async () => {
  await page.getByRole('link', { name: 'Video Generator' }).click();
  await expect(page).toHaveURL(/\/video-generator$/);
  const models = page.getByRole('list', { name: 'Video models' });
  await expect(models.getByRole('link', { name: 'Pixverse v4.5' })).toHaveAttribute('href', '/video-generator/pixverse');
  await expect(models.getByRole('link', { name: /Kling 2\.1/ })).toBeVisible();
  await expectNoA11yViolations(page);
  await models.getByRole('link', { name: 'Wan 2.1 (480p)' }).click();
  await expect(page).toHaveURL(/\/video-generator\/wan$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Wan 2.1 (480p)' })).toBeVisible();
});

test('with 10 credits a 10 s clip (16 credits) cannot be ordered; buying a pack fixes that', async () => {
  await expect(sidebarBalance(page)).toHaveText('10');
  await sidebar().getByRole('radio', { name: /^10 seconds/ }).check();
  await expect(generate()).toHaveText('Generate Video (16 Credits)');
  await expect(generate()).toBeDisabled();
  await buyCredits(page, 150);
  await page.goto('/video-generator/wan');
  await expect(sidebarBalance(page)).toHaveText('160');
});

test('Wan text-to-video: the loading modal shows progress, then the clip plays in the preview', async () => {
  await sidebar().getByLabel('Prompt').fill('a paper boat on a rainy street');
  await sidebar().getByRole('radio', { name: /^5 seconds/ }).check();
  await expect(generate()).toHaveText('Generate Video (8 Credits)');
  await generate().click();
  await expect(modal()).toBeVisible();
  await expect(modal().getByText('Generating: a paper boat on a rainy street...')).toBeVisible();
  await expect(modal().getByRole('progressbar')).toHaveAttribute('aria-valuetext', /elapsed, usually about 1 min 30 s$/);
  await expect(modal().getByRole('button', { name: 'Continue in background' })).toBeFocused();
  // While the job runs (checked before the slower a11y scan, which a loaded machine can make outlast the clip): it
  // locks nothing, the queue takes more.
  await expect(sidebar().getByLabel('Prompt')).toBeEnabled();
  await expectNoA11yViolations(page);
  await expect(sidebarBalance(page)).toHaveText('152');

  await expect(modal()).toHaveCount(0, { timeout: VIDEO_TIMEOUT });
  await expect(previewVideo()).toHaveAttribute('aria-label', 'Preview: a paper boat on a rainy street');
  const facts = await videoFacts(previewVideo());
  expect(facts.height).toBe(480);
  expect(facts.duration).toBeGreaterThan(4.5);
  expect(facts.duration).toBeLessThan(6);
  await expect(gallery().getByRole('article', { name: 'a paper boat on a rainy street' })).toContainText('Wan 2.1 (480p) · 5 s');
  await expect(sidebarBalance(page)).toHaveText('152');
});

test('Wan image-to-video from a start image, 10 s', async () => {
  await sidebar().getByLabel('Start image').setInputFiles(START_IMAGE);
  await expect(sidebar().getByText(/832×520 px/)).toBeVisible();
  await sidebar().getByLabel('Prompt').fill('the sun rises over the hills');
  await sidebar().getByRole('radio', { name: /^10 seconds/ }).check();
  await expect(generate()).toHaveText('Generate Video (16 Credits)');
  await generate().click();
  // The window can be put aside: the job goes on as a tile above the results.
  await modal().getByRole('button', { name: 'Continue in background' }).click();
  await expect(modal()).toHaveCount(0);
  await expect(running().getByRole('progressbar')).toBeVisible();
  await expect(running().getByText('Generating: the sun rises over the hills...')).toBeVisible();
  await expect(running().getByRole('button', { name: 'Cancel the sun rises over the hills' })).toBeVisible();

  await expect(previewVideo()).toHaveAttribute('aria-label', 'Preview: the sun rises over the hills', { timeout: VIDEO_TIMEOUT });
  const facts = await videoFacts(previewVideo());
  // A real 10 s clip (two 5 s segments joined), at normal speed: Chromium plays it through at 16 fps.
  expect(facts.duration).toBeGreaterThanOrEqual(9.5);
  expect(facts.duration).toBeLessThanOrEqual(10.5);
  const played = await playThrough(previewVideo());
  expect(played.decodedFrames / facts.duration).toBeGreaterThanOrEqual(16 * 0.97);
  expect(1 / played.shortestFrameStep).toBeGreaterThanOrEqual(15.5);
  await expect(previewVideo()).toHaveAttribute('poster', /-poster\.jpg/);
  await expect(gallery().getByRole('article', { name: 'the sun rises over the hills' })).toContainText('10 s · from image');
  await expect(sidebarBalance(page)).toHaveText('136');
  await sidebar().getByRole('button', { name: 'Remove start image' }).click();
});

/**
 * Plays a clip to its end (muted, at 2x so it takes about 5 s) and counts what Chromium decoded: the frames
 * (getVideoPlaybackQuality) and the shortest step between two frames it presented (requestVideoFrameCallback's
 * mediaTime): 1/16 s for a 16 fps clip, whatever the machine's load drops.
 */
async function playThrough(video: Locator): Promise<{ decodedFrames: number; shortestFrameStep: number }> {
  return video.evaluate(
    (v: HTMLVideoElement) =>
      new Promise<{ decodedFrames: number; shortestFrameStep: number }>((resolve, reject) => {
        const times: number[] = [];
        const onFrame = (_now: number, meta: { mediaTime: number }) => {
          times.push(meta.mediaTime);
          if (!v.ended) v.requestVideoFrameCallback(onFrame);
        };
        v.requestVideoFrameCallback(onFrame);
        v.addEventListener(
          'ended',
          () => {
            const steps = times.slice(1).map((t, i) => t - times[i]!).filter((d) => d > 0.001);
            resolve({ decodedFrames: v.getVideoPlaybackQuality().totalVideoFrames, shortestFrameStep: Math.min(...steps) });
          },
          { once: true },
        );
        v.muted = true;
        v.currentTime = 0;
        v.playbackRate = 2;
        v.play().catch(reject);
      }),
  );
}

test('after "Continue in background" no window blocks again, also after a reload; the job resumes as a tile and finishes', async () => {
  await sidebar().getByLabel('Prompt').fill('[slow] fireflies in a forest');
  await sidebar().getByRole('radio', { name: /^5 seconds/ }).check();
  await generate().click();
  const tile = running().getByText('Generating: [slow] fireflies in a forest...');
  await expect(tile).toBeVisible();
  await expect(modal()).toHaveCount(0);
  await expect(sidebarBalance(page)).toHaveText('128');

  await page.reload();
  await expect(tile).toBeVisible();
  await expect(modal()).toHaveCount(0);
  await expect(tile).toHaveCount(0, { timeout: VIDEO_TIMEOUT });
  await expect(previewVideo()).toHaveAttribute('aria-label', 'Preview: [slow] fireflies in a forest');
  await expect(gallery().getByRole('article', { name: '[slow] fireflies in a forest' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('activeJobs'))).toBeNull();
});

test('downloads a video as {prompt}-{timestamp}.mp4', async () => {
  const card = gallery().getByRole('article', { name: 'a paper boat on a rainy street' });
  const download = page.waitForEvent('download');
  await card.getByRole('link', { name: /^Download/ }).click();
  const file = await download;
  expect(file.suggestedFilename()).toMatch(/^a paper boat on a rainy street-\d{13}\.mp4$/);
  expect(fs.readFileSync(await file.path()).subarray(4, 8).toString()).toBe('ftyp');
});

test('deletes a video after confirming', async () => {
  const card = gallery().getByRole('article', { name: 'a paper boat on a rainy street' });
  await card.getByRole('button', { name: /^Delete/ }).click();
  const deleted = page.waitForResponse((r) => r.request().method() === 'DELETE' && r.url().includes('/api/media/'));
  await page.getByRole('dialog', { name: 'Delete this video?' }).getByRole('button', { name: 'Delete' }).click();
  await expect(card).toHaveCount(0);
  expect((await deleted).status()).toBe(204);
  await page.reload();
  await expect(gallery().getByRole('article')).toHaveCount(2);
  await expect(gallery().getByRole('article', { name: 'a paper boat on a rainy street' })).toHaveCount(0);
});

test('My Account plays the videos under Previous Prompts', async () => {
  await page.goto('/admin');
  const panel = page.getByRole('tabpanel');
  const newest = panel.getByRole('article').first();
  await expect(newest).toHaveAccessibleName('[slow] fireflies in a forest');
  const facts = await videoFacts(newest.locator('video'));
  expect(facts.height).toBe(480);
  await expect(panel.getByRole('article')).toHaveCount(2);
  // A tile has no native controls: it plays muted while pointed at, and opens in the viewer, which has them.
  const tile = newest.getByRole('button', { name: 'Open full size: [slow] fireflies in a forest' });
  await expect(newest.locator('video')).not.toHaveAttribute('controls');
  await tile.hover();
  await expect.poll(() => newest.locator('video').evaluate((v: HTMLVideoElement) => !v.paused)).toBe(true);
  await tile.click();
  await expect(page.getByRole('dialog').getByTestId('lightbox-media')).toHaveAttribute('controls');
});

test('Kling 2.1 from a start to an end image in 1080p: the job starts, costs what the button said and ends', async () => {
  await page.goto('/video-generator/kling');
  await expect(sidebarBalance(page)).toHaveText(/^\d+$/);
  const before = Number(await sidebarBalance(page).textContent());
  await sidebar().getByLabel('Start image').setInputFiles(START_IMAGE);
  await sidebar().getByLabel('End image').setInputFiles(START_IMAGE);
  // Both pictures are converted for upload before Generate.
  await expect(sidebar().getByText(/\d+×\d+ px/)).toHaveCount(2);
  await sidebar().getByRole('radio', { name: /^1080p/ }).check();
  await sidebar().getByRole('radio', { name: /^5 seconds/ }).check();
  await expect(generate()).toHaveText(/^Generate Video \(\d+ Credits\)$/);
  const shown = Number(/\((\d+) Credits\)/.exec((await generate().textContent()) ?? '')![1]);
  await sidebar().getByLabel('Prompt').fill('the door swings open');
  await generate().click();
  await expect(running().getByText('Generating: the door swings open...')).toBeVisible();
  await expect(sidebarBalance(page)).toHaveText(String(before - shown));
  await expect(previewVideo()).toHaveAttribute('aria-label', 'Preview: the door swings open', { timeout: VIDEO_TIMEOUT });
  await expect(gallery().getByRole('article', { name: 'the door swings open' })).toBeVisible();
  // Delivered, so kept: nothing was refunded.
  await expect(sidebarBalance(page)).toHaveText(String(before - shown));
});
