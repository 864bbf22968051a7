/**
 * The studio's generator side, end to end as one signed-in user: several jobs at once with their own rows, one
 * canceled before the provider began it (credits back) and one after (asked first, no refund), a failure shown in
 * the preview's place with the credits refunded, Ctrl+Enter keeping focus in the prompt, reuse and Animate from
 * their URLs, the picked preview kept across a reload, and signing in with the address in another case.
 */
import { expect, test, type Page } from '@playwright/test';
import { createVerifiedUser, loginViaUi, storedIdToken } from './support/accounts';
import { buyCredits, IMAGE_TIMEOUT, shareSignedInPage, sidebarBalance, VIDEO_TIMEOUT } from './support/generators';

let page: Page;
shareSignedInPage((p) => {
  page = p;
});

const sidebar = () => page.getByRole('complementary', { name: 'Image settings' });
const prompt = () => sidebar().getByLabel('Prompt');
const generate = () => sidebar().getByRole('button', { name: /^Generate Image/ });
/** The running jobs' tiles, at the top of the results. */
const jobRows = () => page.getByRole('list', { name: 'Running jobs' }).getByRole('listitem');
const preview = () => page.getByRole('region', { name: 'Preview' });
/** A cancel the user chose, told beside the preview (not as a failure). */
const canceled = () => page.getByTestId('preview-canceled');
/** The last failure, shown in the preview's place. */
const failure = () => page.getByRole('region', { name: 'This generation did not finish' }).getByTestId('preview-failure');

interface Media {
  id: string;
  type: string;
  prompt: string;
  options: Record<string, string | number | boolean>;
}

/** The user's results as the API lists them (newest first). */
async function myMedia(): Promise<Media[]> {
  const token = await storedIdToken(page);
  const res = await page.request.get('/api/media?limit=50', { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { items: Media[] }).items;
}

/** Starts a generation from the form; answers its job's id (the start's `predictionId`). */
async function start(text: string): Promise<string> {
  await prompt().fill(text);
  const started = page.waitForResponse((r) => r.url().endsWith('/api/generations') && r.request().method() === 'POST');
  await generate().click();
  const res = await started;
  expect(res.status()).toBe(200);
  await expect(jobRows().filter({ hasText: `Generating: ${text}...` })).toBeVisible();
  return ((await res.json()) as { predictionId: string }).predictionId;
}

/** The job's status as its owner's status check answers it (which asks the provider when a webhook is late). */
async function serverStatus(jobId: string): Promise<string> {
  const token = await storedIdToken(page);
  const res = await page.request.get(`/api/check-status/${jobId}`, { headers: { authorization: `Bearer ${token}` } });
  expect(res.status()).toBe(200);
  return ((await res.json()) as { status: string }).status;
}

test('two jobs run at once with their own rows; one canceled before it began gives its credit back', async () => {
  await page.goto('/generator');
  await expect(sidebarBalance(page)).toHaveText('10');
  await start('[queued] a cabin waiting for a machine');
  // The first job locks nothing: the second starts beside it.
  await start('[slow] a red kite over the dunes');
  await expect(jobRows()).toHaveCount(2);
  await expect(sidebarBalance(page)).toHaveText('8');

  await jobRows().getByRole('button', { name: 'Cancel [queued] a cabin waiting for a machine' }).click();
  await expect(jobRows()).toHaveCount(1);
  await expect(sidebarBalance(page)).toHaveText('9');
  await expect(canceled()).toHaveText('The generation was canceled. 1 credit refunded.');
  await expect(failure()).toHaveCount(0);

  // The other one goes on and finishes into the preview.
  await expect(preview().getByRole('img', { name: '[slow] a red kite over the dunes' })).toBeVisible({ timeout: IMAGE_TIMEOUT });
  await expect(jobRows()).toHaveCount(0);
  await expect(sidebarBalance(page)).toHaveText('9');
});

test('canceling a job the provider already runs asks first, and keeps its credit spent', async () => {
  const jobId = await start('[stuck] a clock that never stops');
  const row = jobRows().filter({ hasText: '[stuck] a clock that never stops' });
  // Replicate's webhooks say when a prediction starts and ends, not when it begins processing: the page may still
  // say "Starting"; the server asks the provider, and its answer brings up the confirmation. Wait until the provider
  // has begun it (the status check asks it once the webhook is late), not for a fixed time.
  await expect.poll(() => serverStatus(jobId), { timeout: IMAGE_TIMEOUT }).toBe('processing');
  await row.getByRole('button', { name: /^Cancel / }).click();
  const dialog = page.getByRole('dialog', { name: 'Cancel this generation?' });
  await expect(dialog).toContainText('does not refund its 1 credit');
  await dialog.getByRole('button', { name: 'Cancel without refund' }).click();
  await expect(dialog).toHaveCount(0);
  await expect(jobRows()).toHaveCount(0);
  await expect(canceled()).toHaveText(/^The generation was canceled\. Its 1 credit was spent/);
  await expect(failure()).toHaveCount(0);
  await expect(sidebarBalance(page)).toHaveText('8');
});

test('a failure shows in the preview\'s place with the credits refunded; Ctrl+Enter keeps focus in the prompt', async () => {
  // The cancels before kept the preview: it still shows the last result.
  await expect(preview().getByRole('img', { name: '[slow] a red kite over the dunes' })).toBeVisible();
  await prompt().fill('[fail] a storm over the sea');
  await prompt().focus();
  await page.keyboard.press('Control+Enter');
  await expect(jobRows().filter({ hasText: 'Generating: [fail] a storm over the sea...' })).toBeVisible();
  await expect(prompt()).toBeFocused();
  await expect(failure()).toHaveText('Image generation failed. 1 credit refunded.', { timeout: IMAGE_TIMEOUT });
  // The old result is not shown as if it were the answer, and focus is still where the user was.
  await expect(preview().getByRole('img')).toHaveCount(0);
  await expect(prompt()).toBeFocused();
  await expect(sidebarBalance(page)).toHaveText('8');
});

test('the preview the user picked survives a reload', async () => {
  await prompt().fill('a green door');
  await sidebar().getByLabel('Aspect ratio').selectOption('16:9');
  await generate().click();
  await expect(preview().getByRole('img', { name: 'a green door' })).toBeVisible({ timeout: IMAGE_TIMEOUT });
  // Pick the older result, then reload: it is still the one shown (the newest would be the default).
  const gallery = page.getByRole('region', { name: 'Previous Images' });
  await gallery.getByRole('button', { name: 'Show in preview: [slow] a red kite over the dunes' }).click();
  await expect(preview().getByRole('img', { name: '[slow] a red kite over the dunes' })).toBeVisible();
  await page.reload();
  await expect(preview().getByRole('img', { name: '[slow] a red kite over the dunes' })).toBeVisible();
});

test('reuse: "Use prompt" and "Use settings" URLs fill the image generator', async () => {
  const door = (await myMedia()).find((m) => m.prompt === 'a green door')!;
  await page.goto(`/generator?reuse=${door.id}&use=prompt`);
  await expect(prompt()).toHaveValue('a green door');
  await expect(sidebar().getByLabel('Aspect ratio')).toHaveValue('1:1');

  await page.goto(`/generator?reuse=${door.id}&use=settings`);
  await expect(prompt()).toHaveValue('a green door');
  await expect(sidebar().getByLabel('Aspect ratio')).toHaveValue('16:9');
  await sidebar().getByRole('button', { name: 'Advanced' }).click();
  await expect(sidebar().getByLabel('Seed')).toHaveValue(String(door.options.seed));
});

test('Animate: an image result becomes a video\'s start image without a re-upload', async () => {
  await page.goto('/video-generator/wan');
  await buyCredits(page, 72);
  const door = (await myMedia()).find((m) => m.prompt === 'a green door')!;
  await page.goto(`/video-generator/wan?startMedia=${door.id}`);
  const video = page.getByRole('complementary', { name: 'Video settings' });
  await expect(video.getByRole('img', { name: 'Start image: a green door' })).toBeVisible();
  await video.getByLabel('Prompt').fill('the door swings open');
  const sent = page.waitForRequest((r) => r.url().endsWith('/api/generations') && r.method() === 'POST');
  await video.getByRole('button', { name: /^Generate Video/ }).click();
  const body = (await sent).postDataJSON();
  // The image is named by its media id: nothing is uploaded again.
  expect(body).toMatchObject({ model: 'wan', inputs: { startImage: door.id } });
  const modal = page.getByRole('dialog');
  await modal.getByRole('button', { name: 'Continue in background' }).click();
  await expect(page.getByLabel('Preview: the door swings open')).toBeVisible({ timeout: VIDEO_TIMEOUT });
});

test('one account per email: Ada@Example.com signs in to the account made as ada@example.com', async ({ browser }, testInfo) => {
  const user = await createVerifiedUser();
  const context = await browser.newContext({ baseURL: testInfo.project.use.baseURL });
  const other = await context.newPage();
  const [name, domain] = user.email.split('@');
  await loginViaUi(other, { email: ` ${name!.charAt(0).toUpperCase()}${name!.slice(1)}@${domain!.toUpperCase()} `, password: user.password });
  await other.goto('/admin');
  await expect(other.getByText(user.email)).toBeVisible();
  await context.close();
});
