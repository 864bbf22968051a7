/**
 * Helpers for the generator journeys: one signed-in page shared by a serial file (logging in once keeps the suite
 * quick), buying credits through the PayPal simulator, and reading what a <video> element really plays.
 */
import path from 'node:path';
import { expect, test, type Browser, type Locator, type Page, type TestInfo } from '@playwright/test';
import { WITHDRAWAL_CONSENT_TEXT } from '../../../contract/payments';
import { baseUrl, createVerifiedUser, loginViaUi, storedIdToken, type E2EUser } from './accounts';

export const START_IMAGE = path.join(__dirname, '..', 'fixtures', 'start-image.png');

/** How long a simulated video may take here: 4 s of simulation, encoding (1080p is the slowest) and a 5 s poll. */
export const VIDEO_TIMEOUT = 90_000;
export const IMAGE_TIMEOUT = 30_000;

export async function signedInPage(browser: Browser, testInfo: TestInfo): Promise<{ page: Page; user: E2EUser }> {
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL, acceptDownloads: true });
  const page = await context.newPage();
  const user = await createVerifiedUser();
  await loginViaUi(page, user);
  return { page, user };
}

/**
 * Makes the spec file serial with one signed-in page for all its tests, handed to `onReady` in beforeAll and
 * closed after the last test. Call it at the top of the file; further beforeAll hooks run after the login.
 */
export function shareSignedInPage(onReady: (page: Page) => void): void {
  test.describe.configure({ mode: 'serial' });
  let page: Page | undefined;
  test.beforeAll(async ({ browser }, testInfo) => {
    ({ page } = await signedInPage(browser, testInfo));
    onReady(page);
  });
  test.afterAll(async () => {
    await page?.context().close();
  });
}

/** The generator sidebar's balance. */
export function sidebarBalance(page: Page): Locator {
  return page.getByTestId('credits-box-balance');
}

/** Buys a pack from a generator page's Buy Credits toggle through the PayPal simulator's approval page. */
export async function buyCredits(page: Page, credits: 72 | 150 | 300): Promise<void> {
  await page.getByRole('complementary').getByRole('button', { name: 'Buy Credits' }).click();
  await page.getByRole('checkbox', { name: WITHDRAWAL_CONSENT_TEXT }).check();
  await page.getByRole('button', { name: new RegExp(`^Buy ${credits} credits for`) }).click();
  await page.getByRole('button', { name: 'Pay now' }).click();
  // Back on the generator: the message shows (and the page then clears the query string).
  await expect(page.getByText(`Payment successful! Added ${credits} credits.`)).toBeVisible({ timeout: 30_000 });
}

/** Waits until the video can play and returns its length and frame height, as Chromium decoded them. */
export async function videoFacts(video: Locator): Promise<{ duration: number; width: number; height: number }> {
  // A video with a poster loads nothing until asked (preload="none"), as a viewer pressing play would ask.
  await video.evaluate((v: HTMLVideoElement) => {
    if (v.preload === 'none' && v.readyState === 0) {
      v.preload = 'metadata';
      v.load();
    }
  });
  await expect
    .poll(() => video.evaluate((v: HTMLVideoElement) => v.readyState), { message: 'the video loads its metadata', timeout: 20_000 })
    .toBeGreaterThanOrEqual(1);
  return video.evaluate((v: HTMLVideoElement) => ({ duration: v.duration, width: v.videoWidth, height: v.videoHeight }));
}

/** The page fits a phone's width: nothing scrolls sideways. */
export async function expectFitsWidth(page: Page, width: number): Promise<void> {
  await page.setViewportSize({ width, height: 800 });
  await expect.poll(() => page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
}

/** Makes images through the API as the signed-in user (one job each, with `options` such as an aspect ratio), and waits until each is saved. */
export async function makeImages(page: Page, prompts: readonly string[], options: Record<string, unknown> = {}): Promise<void> {
  const token = await storedIdToken(page);
  const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
  for (const prompt of prompts) {
    const res = await fetch(`${baseUrl()}/api/generate-image`, { method: 'POST', headers, body: JSON.stringify({ prompt, ...options }) });
    expect(res.status).toBe(200);
    const { predictionId } = (await res.json()) as { predictionId: string };
    await expect
      .poll(async () => ((await (await fetch(`${baseUrl()}/api/check-status/${predictionId}`, { headers })).json()) as { status: string }).status, { timeout: IMAGE_TIMEOUT })
      .toBe('succeeded');
  }
}
