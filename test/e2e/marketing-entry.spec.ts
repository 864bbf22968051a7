/**
 * The two entries in Chromium against the production build: marketing pages run on the light entry
 * (no app code downloaded), move between each other without a reload, restore scroll positions, move
 * focus to the new page; links into the app hand the tab over to it without a reload, with the back
 * button, scroll positions and the signed-in session intact.
 */
import { expect, test, type Page } from '@playwright/test';
import { APP_ENTRY, entryKey, MARKETING_ENTRY, MARKETING_PAGES, packageOf, readChunkModules, readManifest, staticClosure, WEB_DIST } from '../bench/web-bundle';
import { createVerifiedUser, loginViaUi } from './support/accounts';

/** The JS files only the full app needs (its entry, react-router, the route table...): none of the marketing pages' files. */
function appOnlyFiles(): string[] {
  const manifest = readManifest(WEB_DIST);
  const files = (roots: string[]) => new Set(staticClosure(manifest, roots).map((key) => manifest[key]!.file));
  const marketing = files([
    entryKey(manifest),
    MARKETING_ENTRY,
    'src/lib/config.ts', // read in the background: the contact form and the terms need it
    ...Object.values(MARKETING_PAGES),
  ]);
  return [...files([APP_ENTRY])].filter((f) => f.endsWith('.js') && !marketing.has(f));
}

/** Packages bundled into a built JS file, from .vite/chunk-modules.json. */
function packagesIn(file: string): string[] {
  return (readChunkModules(WEB_DIST)[file] ?? []).map(packageOf).filter((p): p is string => Boolean(p));
}

function recordScripts(page: Page): string[] {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname.slice(1));
  });
  return scripts;
}

/** Marks the document: the mark survives anything but a page load. */
const mark = (page: Page) => page.evaluate(() => Object.assign(window, { __noReload: true }));
const stillSameDocument = (page: Page) => page.evaluate(() => (window as Window & { __noReload?: boolean }).__noReload === true);

const scrollY = (page: Page) => page.evaluate(() => Math.round(window.scrollY));
/** Scrolls once the page is tall enough (its lazy chunk may still be rendering). */
async function scrollTo(page: Page, y: number) {
  await expect
    .poll(() =>
      page.evaluate((to) => {
        window.scrollTo(0, to);
        return Math.round(window.scrollY);
      }, y),
    )
    .toBe(y);
}

test('a marketing page downloads none of the app, until a visitor heads into it', async ({ page }) => {
  const app = appOnlyFiles();
  expect(app.length).toBeGreaterThan(0);
  const scripts = recordScripts(page);
  await page.goto('/');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Framewright');
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQ' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently asked questions');
  expect(scripts.filter((s) => app.includes(s))).toEqual([]);
  const packages = new Set(scripts.flatMap(packagesIn));
  expect(packages).toContain('react-dom');
  expect([...packages].filter((p) => /react-router|amplify/.test(p))).toEqual([]);

  // Pointing at 'Go To App' starts loading the app.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Go To App' }).hover();
  await expect.poll(() => scripts.filter((s) => app.includes(s)).length).toBe(app.length);
});

test('marketing pages follow each other without a reload, with back, forward, scroll positions and focus', async ({ page }) => {
  await page.goto('/faq');
  await mark(page);
  await scrollTo(page, 700);

  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: 'Pricing' }).click();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Simple credit packs');
  await expect(page).toHaveTitle('Pricing · Framewright');
  expect(await scrollY(page)).toBe(0);
  // Focus moves to the new page's content and its title is announced.
  await expect(page.getByRole('main')).toBeFocused();
  await expect(page.locator('[aria-live="polite"]')).toHaveText('Pricing · Framewright');

  await page.goBack();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently asked questions');
  await expect.poll(() => scrollY(page)).toBe(700);
  await page.goForward();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Simple credit packs');
  await expect.poll(() => scrollY(page)).toBe(0);
  expect(await stillSameDocument(page)).toBe(true);

  // A reload keeps the reader's place too.
  await scrollTo(page, 500);
  await page.reload();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Simple credit packs');
  await expect.poll(() => scrollY(page)).toBe(500);
});

test('the keyboard follows a top-bar link to the top of the new page', async ({ page }) => {
  await page.goto('/');
  const features = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Features' });
  await features.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('The models behind Framewright');
  await expect(page.getByRole('main')).toBeFocused();
  // The next Tab lands in the new page's content, not back in the top bar.
  await page.keyboard.press('Tab');
  expect(await page.evaluate(() => document.getElementById('main-content')?.contains(document.activeElement))).toBe(true);
});

test('Go To App hands the tab to the app without a reload; back returns to the marketing page and its scroll position', async ({ page }) => {
  await page.goto('/pricing');
  await mark(page);
  await scrollTo(page, 600);
  await page.getByRole('link', { name: /^Buy \d+ credits/ }).first().click();

  // Signed out: the app's guard sends /generator on to /login.
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('form', { name: 'Log in' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'App' })).toBeVisible();
  expect(await scrollY(page)).toBe(0);
  expect(await stillSameDocument(page)).toBe(true);

  await page.goBack();
  await expect(page).toHaveURL(/\/pricing$/);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Simple credit packs');
  await expect.poll(() => scrollY(page)).toBe(600);
  // Now the app shows the marketing pages, and its links keep working.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'FAQ' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Frequently asked questions');
  expect(await stillSameDocument(page)).toBe(true);
});

test('back from an app page onto a marketing page opened fresh, and forward again, work across the two entries', async ({ page }) => {
  await page.goto('/login');
  await page.getByRole('contentinfo').getByRole('link', { name: 'Terms and Conditions' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms and Conditions');
  // A reload starts the marketing entry on /terms...
  await page.reload();
  await expect(page.getByTestId('terms-content')).toBeVisible();
  await mark(page);
  // ...which hands back to the app for /login when the visitor goes back.
  await page.goBack();
  await expect(page).toHaveURL(/\/login$/);
  await expect(page.getByRole('form', { name: 'Log in' })).toBeVisible();
  expect(await stillSameDocument(page)).toBe(true);
  await page.goForward();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Terms and Conditions');
});

test('a signed-in visitor goes from the landing page straight into the app, still signed in', async ({ page }) => {
  const user = await createVerifiedUser();
  await loginViaUi(page, user);
  await page.goto('/');
  await mark(page);
  await page.getByRole('link', { name: 'Start Creating' }).click();
  await expect(page).toHaveURL(/\/generator$/);
  await expect(page.getByRole('button', { name: 'Logout' })).toBeVisible();
  expect(await stillSameDocument(page)).toBe(true);
});
