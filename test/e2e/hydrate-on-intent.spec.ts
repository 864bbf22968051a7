/**
 * A prerendered public page loads no app script until the visitor shows intent, and what the visitor does before the
 * app has hydrated the page is not lost: a click on a link navigates in the app, a button does its job, text typed
 * into a form is sent (web/src/early-input.ts).
 */
import { expect, test, type Page } from '@playwright/test';

const scriptsLoaded = (page: Page) =>
  page.evaluate(() => performance.getEntriesByType('resource').filter((r) => /\/assets\/.*\.js$/.test(r.name)).length);

test('a public page loads one small script until the visitor acts, then the app', async ({ page }) => {
  await page.goto('/faq');
  await page.waitForLoadState('networkidle');
  // main.ts only: React, the router and the page wait for the visitor.
  expect(await scriptsLoaded(page)).toBe(1);
  await page.getByRole('button', { name: 'How long can a video be?' }).click();
  await expect(page.getByRole('button', { name: 'How long can a video be?' })).toHaveAttribute('aria-expanded', 'true');
  expect(await scriptsLoaded(page)).toBeGreaterThan(1);
});

test('a link clicked before hydration opens its page in the app, without loading a document', async ({ page }) => {
  await page.goto('/pricing', { waitUntil: 'domcontentloaded' });
  await page.evaluate(() => Object.assign(window, { __noReload: true }));
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQ' }).click();
  await expect(page).toHaveURL(/\/faq$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently asked questions');
  expect(await page.evaluate(() => (window as Window & { __noReload?: boolean }).__noReload)).toBe(true);
});

test('a question pressed from the keyboard before hydration opens', async ({ page }) => {
  await page.goto('/faq', { waitUntil: 'domcontentloaded' });
  const question = page.getByRole('button', { name: 'How long can a video be?' });
  await question.focus();
  await page.keyboard.press('Enter');
  await expect(question).toHaveAttribute('aria-expanded', 'true');
});

test('a contact message typed and sent before hydration is sent, with every field', async ({ page, request }) => {
  await page.goto('/contact', { waitUntil: 'domcontentloaded' });
  const subject = `Early ${Math.random().toString(36).slice(2, 8)}`;
  // Straight into the fields, as fast as a browser can type, and sent at once.
  await page.getByLabel('Your email').fill('early@example.com');
  await page.getByLabel('Subject').fill(subject);
  await page.getByLabel('Description').fill('Typed before the page was hydrated.');
  await page.getByRole('button', { name: 'Send message' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'Message sent' })).toBeVisible();
  const { messages } = (await (await request.get('/_dev/mailbox.json')).json()) as { messages: Array<{ subject: string; text: string }> };
  const mail = messages.find((m) => m.subject.includes(subject));
  expect(mail?.text).toContain('Typed before the page was hydrated.');
});
