/**
 * Live updates in Chromium: two tabs of one signed-in user follow each other through the push channel (/live), and
 * a tab whose socket is cut mid-job still shows the result (the spec's 5 s checks run while it is down) and, once
 * the socket is back, shows it once.
 */
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { baseUrl, createVerifiedUser, loginViaUi, storedIdToken } from './support/accounts';
import { IMAGE_TIMEOUT, buyCredits, sidebarBalance } from './support/generators';

test.describe.configure({ mode: 'serial' });

const sidebar = (page: Page) => page.getByRole('complementary', { name: 'Image settings' });
/** The running jobs' tiles, at the top of the results. */
const running = (page: Page) => page.getByRole('region', { name: 'Running' });
const preview = (page: Page) => page.getByRole('region', { name: 'Preview' });
const gallery = (page: Page) => page.getByRole('region', { name: 'Previous Images' });

let context: BrowserContext;
let tabA: Page;
let tabB: Page;

test.beforeAll(async ({ browser }, testInfo) => {
  context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  tabA = await context.newPage();
  await loginViaUi(tabA, await createVerifiedUser());
  // The second tab of the same session (same storage, its own socket).
  tabB = await context.newPage();
  for (const tab of [tabA, tabB]) {
    await tab.goto('/generator');
    await expect(sidebarBalance(tab)).toHaveText('10');
  }
});

test.afterAll(async () => {
  await context?.close();
});

test('a job started in one tab appears and completes in both', async () => {
  const prompt = '[slow] two tabs, one lighthouse';
  await sidebar(tabA).getByLabel('Prompt').fill(prompt);
  await sidebar(tabA).getByRole('button', { name: 'Generate Image (1 Credit)' }).click();
  // Tab B hears of it while it runs (pushed: nothing in tab B asks), and of the charge.
  await expect(running(tabB).getByText(`Generating: ${prompt}...`)).toBeVisible();
  await expect(sidebarBalance(tabB)).toHaveText('9');
  for (const tab of [tabA, tabB]) {
    await expect(preview(tab).getByRole('img', { name: prompt })).toBeVisible({ timeout: IMAGE_TIMEOUT });
    await expect(gallery(tab).getByRole('article', { name: prompt })).toHaveCount(1);
    await expect(running(tab).getByText(/^Generating: /)).toHaveCount(0);
  }
});

test('a purchase in one tab updates the balance in the other', async () => {
  await expect(sidebarBalance(tabB)).toHaveText('9');
  await buyCredits(tabA, 72);
  await expect(sidebarBalance(tabA)).toHaveText('81');
  // Tab B made no request: the balance was pushed.
  await expect(sidebarBalance(tabB)).toHaveText('81', { timeout: 5_000 });
});

test('socket dropped mid-job: the result still appears, and once after the socket is back', async ({ request }) => {
  const page = tabB;
  const token = await storedIdToken(page);
  const sub = (JSON.parse(Buffer.from(token!.split('.')[1]!, 'base64url').toString('utf8')) as { sub: string }).sub;
  const dev = (path: string) => request.post(`${baseUrl()}/_dev/live/${path}?sub=${encodeURIComponent(sub)}`);
  // This user's new sockets are refused (503), then the open ones are cut without a close handshake.
  expect((await dev('refuse')).status()).toBe(200);
  expect((await dev('drop')).status()).toBe(200);

  const prompt = '[slow] a lighthouse in the fog';
  await sidebar(page).getByLabel('Prompt').fill(prompt);
  await sidebar(page).getByRole('button', { name: 'Generate Image (1 Credit)' }).click();
  await expect(running(page).getByText(`Generating: ${prompt}...`)).toBeVisible();
  // No pushes reach this user: the 5 s checks deliver the result.
  await expect(preview(page).getByRole('img', { name: prompt })).toBeVisible({ timeout: IMAGE_TIMEOUT });
  await expect(gallery(page).getByRole('article', { name: prompt })).toHaveCount(1);

  // Back up (after its backoff), the tab catches up: it reads the balance and the gallery again.
  const caughtUp = page.waitForRequest((r) => r.url().endsWith('/api/me'), { timeout: 60_000 });
  expect((await request.post(`${baseUrl()}/_dev/live/refuse?sub=${encodeURIComponent(sub)}&on=0`)).status()).toBe(200);
  await caughtUp;
  await page.waitForTimeout(1_000);
  // Every result once, nothing left running.
  await expect(gallery(page).getByRole('article', { name: prompt })).toHaveCount(1);
  await expect(gallery(page).getByRole('article', { name: '[slow] two tabs, one lighthouse' })).toHaveCount(1);
  await expect(running(page).getByText(/^Generating: /)).toHaveCount(0);
  await expect(sidebarBalance(page)).toHaveText('80');
});
