/**
 * The public site in Chromium against the embedded stack serving the production build: every marketing
 * page, the top bar, the facts the pages state (checked against contract/), the contact form down to the
 * dev mailbox and its rate limit, the payment return messages, 375 px layouts and axe on every page.
 */
import { expect, test, type Page } from '@playwright/test';
import { SIGNUP_CREDITS } from '../../contract/catalog';
import { modelBySlug, priceOf, type OptionValues } from '../../contract/models';
import { MODEL_VIEWS } from '../../contract/models/view';
import { choiceText, priceSummary } from '../../web/src/features/marketing/price-text';
import { CONTACT_LIMIT_PER_SENDER, ContactMessages } from '../../contract/contact';
import { CREDIT_PACKS, formatUsd } from '../../contract/packs';
import { PLANS } from '../../contract/plans';
import { expectNoA11yViolations } from './support/a11y';

const PAGES = [
  { path: '/', title: 'Framewright · AI image and video studio', h1: 'Framewright' },
  { path: '/features', title: 'The models behind Framewright · Framewright', h1: 'The models behind Framewright' },
  { path: '/learn', title: 'Your first clip in six steps · Framewright', h1: 'Your first clip in six steps' },
  { path: '/contact', title: 'Talk to a human · Framewright', h1: 'Talk to a human' },
  { path: '/example', title: 'Prompts, settings and results · Framewright', h1: 'Prompts, settings and results' },
  { path: '/faq', title: 'FAQ · Framewright', h1: 'Frequently asked questions' },
  { path: '/pricing', title: 'Pricing · Framewright', h1: 'Monthly plans and credit packs' },
] as const;

const TOP_BAR: Array<[string, string]> = [
  ['Features', '/features'],
  ['Learn', '/learn'],
  ['Contact', '/contact'],
  ['Example', '/example'],
  ['FAQ', '/faq'],
  ['Pricing', '/pricing'],
  ['Go To App', '/generator'],
];

/** What the server charges for this model with these options (the registry's price). */
const cost = (slug: string, options: OptionValues) => {
  const r = priceOf(modelBySlug(slug)!, options);
  if (!r.ok) throw new Error(r.reason);
  return r.cost;
};

const expectNoSeriousAxeViolations = (page: Page) => expectNoA11yViolations(page, { impacts: ['serious', 'critical'] });

test.describe('every marketing page', () => {
  for (const p of PAGES) {
    test(`${p.path} renders with the top bar, the footer, and no serious axe violations`, async ({ page }) => {
      await page.goto(p.path);
      await expect(page.getByRole('heading', { level: 1 })).toHaveText(p.h1);
      await expect(page).toHaveTitle(p.title);
      const nav = page.getByRole('navigation', { name: 'Main' });
      for (const [label, href] of TOP_BAR) await expect(nav.getByRole('link', { name: label, exact: true })).toHaveAttribute('href', href);
      await expect(page.getByRole('contentinfo')).toContainText(`© ${new Date().getFullYear()} Framewright`);
      await expectNoSeriousAxeViolations(page);
    });
  }

  test('the FAQ stays accessible with every answer open', async ({ page }) => {
    await page.goto('/faq');
    const main = page.getByRole('main');
    await expect(main.getByRole('heading', { level: 2 })).toHaveCount(5);
    const questions = main.locator('button[aria-expanded]');
    expect(await questions.count()).toBeGreaterThan(15);
    for (const q of await questions.all()) await q.click();
    await expect(main.locator('button[aria-expanded="false"]')).toHaveCount(0);
    await expectNoSeriousAxeViolations(page);
  });
});

test('each top-bar link leads to its page', async ({ page }) => {
  await page.goto('/');
  for (const [label, href] of TOP_BAR) {
    const link = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });
    await expect(link).toHaveAttribute('href', href);
    await link.click();
    // Go To App leads to /generator, whose guard offers Sign up to a browser that never signed in.
    await expect(page).toHaveURL(new RegExp(`${href === '/generator' ? '/signup' : href}$`));
    const target = PAGES.find((p) => p.path === href);
    if (target) await expect(page.getByRole('heading', { level: 1 })).toHaveText(target.h1);
    await page.goto('/');
  }
  // The logo leads home.
  await page.goto('/faq');
  await page.getByRole('link', { name: 'Framewright home' }).first().click();
  await expect(page).toHaveURL(/\/$/);
});

test.describe('at 375 px', () => {
  test.use({ viewport: { width: 375, height: 740 } });

  test('no page scrolls sideways, and the menu opens from the keyboard', async ({ page }) => {
    for (const p of PAGES) {
      await page.goto(p.path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${p.path} is wider than the screen`).toBeLessThanOrEqual(375);
    }
    await page.goto('/');
    const toggle = page.getByRole('button', { name: 'Open menu' });
    await toggle.focus();
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Pricing' }).click();
    await expect(page).toHaveURL(/\/pricing$/);
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeVisible();
    await expectNoSeriousAxeViolations(page);
  });
});

test.describe('content facts', () => {
  test('pricing shows the contract plans, packs and per-model costs', async ({ page }) => {
    await page.goto('/pricing');
    for (const plan of PLANS) {
      const card = page.getByTestId(`plan-${plan.id}`);
      await expect(card.getByRole('heading')).toHaveText(plan.name);
      await expect(card).toContainText(formatUsd(plan.cents));
      await expect(card).toContainText('a month');
      await expect(card).toContainText(`${plan.credits} credits every month`);
    }
    for (const pack of CREDIT_PACKS) {
      const card = page.getByTestId(`pack-${pack.id}`);
      await expect(card.getByRole('heading')).toHaveText(`${pack.credits} credits`);
      await expect(card).toContainText(formatUsd(pack.cents));
      await expect(card).toContainText(`Equivalent to ${pack.basicVideos} basic videos`);
    }
    // The 2025 beta dates are gone: plans are sold now.
    await expect(page.getByText(/Beta pricing|Subscriptions are planned/)).toHaveCount(0);
    // Every orderable model and operation of the registry has its price card, in the registry's order.
    await expect(page.getByTestId(/^costs-/)).toHaveCount(MODEL_VIEWS.filter((m) => !m.upcoming).length);
    for (const m of MODEL_VIEWS.filter((v) => !v.upcoming)) await expect(page.getByTestId(`costs-${m.id}`)).toContainText(m.name);
    await expect(page.getByTestId('cost-sdxl-default-4')).toHaveText(`${cost('sdxl', { count: 4 })} credits`);
    await expect(page.getByTestId('cost-wan-default-5')).toHaveText(`${cost('wan', { duration: 5 })} credits`);
    await expect(page.getByTestId('cost-wan-default-10')).toHaveText(`${cost('wan', { duration: 10 })} credits`);
    for (const q of ['540p', '720p', '1080p']) await expect(page.getByTestId(`cost-pixverse-${q}-5`)).toHaveText(`${cost('pixverse', { duration: 5, quality: q })} credits`);
    // The long Pixverse clip is 8 s at double price, and 1080p only at 5 s.
    await expect(page.getByTestId('cost-pixverse-720p-8')).toHaveText(`${2 * cost('pixverse', { duration: 5, quality: '720p' })} credits`);
    await expect(page.getByTestId('cost-pixverse-1080p-8')).toHaveText('not offered');
    await expect(page.getByTestId('cost-kling-1080p-10')).toHaveText(`${cost('kling', { duration: 10, quality: '1080p' })} credits`);
  });

  test('features shows a card per registry entry, Kling 2.1 among the video models and none upcoming', async ({ page }) => {
    await page.goto('/features');
    const headings = (region: string) => page.getByRole('region', { name: region }).getByRole('heading', { level: 3 });
    const names = (f: (m: (typeof MODEL_VIEWS)[number]) => boolean) => MODEL_VIEWS.filter(f).map((m) => m.name);
    await expect(headings('Video models')).toHaveText(names((m) => m.kind === 'video' && m.operation === 'generate'));
    await expect(headings('Image models')).toHaveText(names((m) => m.kind === 'image' && m.operation === 'generate'));
    await expect(headings('Work on your results')).toHaveText(names((m) => m.operation !== 'generate'));
    for (const view of MODEL_VIEWS.filter((m) => m.kind === 'video')) {
      const card = page.getByTestId(`model-${view.id}`);
      await expect(card).toContainText(choiceText(view.options.find((o) => o.id === 'duration')!));
      if (!view.upcoming) await expect(card).not.toContainText('Upcoming');
    }
    const kling = page.getByTestId('model-kling');
    await expect(kling).toContainText('5 or 10 seconds');
    await expect(kling.locator('dt:text-is("Start image") + dd')).toHaveText('Required');
    await expect(page.getByTestId('model-pixverse')).toContainText('5 or 8 seconds');
  });

  test('landing, learn, example and contact state the product facts', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByText(`start with ${SIGNUP_CREDITS} free ones`)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Start Creating' })).toHaveAttribute('href', '/generator');

    await page.goto('/learn');
    await expect(page.getByRole('heading', { name: 'Step by step' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'Example prompts' })).toBeVisible();
    await expect(page.getByRole('heading', { name: 'How credits work' })).toBeVisible();
    for (const m of MODEL_VIEWS.filter((v) => v.prices)) await expect(page.getByText(`${m.name}: ${priceSummary(m.prices!)}`)).toBeVisible();

    await page.goto('/example');
    for (const name of ['Wan 2.1 (480p)', 'Pixverse v4.5']) await expect(page.getByRole('heading', { level: 2, name })).toBeVisible();
    const pixverse = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Pixverse v4.5, 720p' }) });
    await expect(pixverse).toContainText('Quality720p');
    await expect(pixverse).toContainText(`Cost${cost('pixverse', { duration: 5, quality: '720p' })} credits`);

    await page.goto('/contact');
    await expect(page.getByRole('complementary')).toContainText('Monday to Friday, 9:00–17:00 UTC');
    await expect(page.getByRole('complementary')).toContainText('within 48 hours');
  });

  test('media come with posters, preload="none" and lazy images, and are served', async ({ page, request }) => {
    await page.goto('/');
    const hero = page.locator('video').first();
    await expect(hero).toHaveAttribute('preload', 'none');
    await expect(hero).toHaveAttribute('playsinline', '');
    expect(await hero.evaluate((v: HTMLVideoElement) => v.muted && v.loop)).toBe(true);
    const poster = (await hero.getAttribute('poster'))!;
    expect((await request.get(poster)).status()).toBe(200);

    // /example fetches no clip and no poster before it is on screen: each clip is a lazy poster linking to its MP4.
    await page.goto('/example');
    await expect(page.locator('video')).toHaveCount(0);
    const clips = page.getByRole('link', { name: /^Play / });
    await expect(clips).toHaveCount(4);
    for (const clip of await clips.all()) {
      const poster = clip.locator('img');
      await expect(poster).toHaveAttribute('loading', 'lazy');
      expect((await request.get((await poster.getAttribute('src'))!)).status()).toBe(200);
      const res = await request.get((await clip.getAttribute('href'))!);
      expect(res.status()).toBe(200);
      expect(res.headers()['content-type']).toBe('video/mp4');
    }
    for (const img of await page.locator('img').all()) await expect(img).toHaveAttribute('loading', 'lazy');
  });

  test('an example clip plays in place, with controls, when its poster is clicked', async ({ page }) => {
    await page.goto('/example');
    const first = page.getByRole('link', { name: /^Play / }).first();
    const label = (await first.getAttribute('aria-label'))!.replace(/^Play /, '');
    // Clicked before the page has hydrated: the click is held, then plays the clip in the page, not in a new document.
    await first.click();
    const video = page.getByRole('main').locator('video');
    await expect(video).toHaveAttribute('aria-label', label);
    await expect(video).toHaveAttribute('controls', '');
    await expect.poll(() => video.evaluate((v: HTMLVideoElement) => !v.paused && v.currentTime > 0)).toBe(true);
    await expect(video).toBeFocused();
    expect(page.url()).toMatch(/\/example$/);
  });
});

test.describe('payment return on the landing page', () => {
  // The real success (an order the server credited) is in payments.spec.ts; a URL's own numbers show nothing.
  for (const url of ['/?payment=success&userId=9b1c-user&credits=150', '/?payment=success&order=FORGEDORDER0000000', '/?payment=cancel']) {
    test(`a forged return shows no message and is cleared: ${url}`, async ({ page }) => {
      await page.goto(url);
      await expect(page).toHaveURL(/\/$/);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      await page.waitForLoadState('networkidle');
      await expect(page.getByText(/Payment (successful|was canceled)/)).toHaveCount(0);
    });
  }
});

test.describe('contact form', () => {
  async function send(page: Page, email: string, subject: string, description: string) {
    await page.getByLabel('Your email').fill(email);
    await page.getByLabel('Subject').fill(subject);
    await page.getByLabel('Description').fill(description);
    await page.getByRole('button', { name: 'Send message' }).click();
  }

  test('asks for every field, then delivers the message to support', async ({ page, request }) => {
    await page.goto('/contact');
    // The form is prerendered: its checks run once the page's scripts have hydrated it.
    await page.waitForLoadState('networkidle');
    await page.getByRole('button', { name: 'Send message' }).click();
    await expect(page.getByRole('alert')).toHaveText('Please fill in all fields.');

    const email = `visitor-${Date.now()}@example.com`;
    const subject = `Missing credits ${Math.random().toString(36).slice(2, 8)}`;
    await send(page, email, subject, 'I bought 150 credits this morning.');
    await expect(page.getByRole('status').filter({ hasText: 'Message sent' })).toHaveText("Message sent successfully! We'll reply within 48 hours.");
    await expect(page.getByLabel('Subject')).toHaveValue('');

    const res = await request.get('/_dev/mailbox.json');
    const { messages } = (await res.json()) as { messages: Array<{ subject: string; replyTo: string[]; text: string; to: string[] }> };
    const mail = messages.find((m) => m.subject === `[Contact] ${subject}`);
    expect(mail, 'the contact mail is in the dev mailbox').toBeDefined();
    expect(mail!.replyTo).toEqual([email]);
    expect(mail!.text).toContain('I bought 150 credits this morning.');
  });

  test.describe('rate limit', () => {
    // The browser's IP is the socket's (127.0.0.1): the per-IP allowance (20 an hour) is shared with the run's
    // other contact messages, well under it; the sender's allowance (5) is what this test reaches.
    test(`the message after ${CONTACT_LIMIT_PER_SENDER} in a row from one sender is refused with the server's reason`, async ({ page }) => {
      const email = `busy-${Date.now()}@example.com`;
      await page.goto('/contact');
      await page.waitForLoadState('networkidle');
      for (let i = 1; i <= CONTACT_LIMIT_PER_SENDER; i++) {
        await send(page, email, `Question ${i}`, 'Hello');
        await expect(page.getByRole('status').filter({ hasText: 'Message sent' })).toBeVisible();
      }
      await send(page, email, 'One more', 'Hello');
      // After the burst, one more is allowed each hour / limit (12 minutes for 5 an hour).
      await expect(page.getByRole('alert')).toHaveText(`Error: ${ContactMessages.rateLimited(Math.ceil(60 / CONTACT_LIMIT_PER_SENDER))}`);
      // What was typed is kept, so nothing is lost.
      await expect(page.getByLabel('Subject')).toHaveValue('One more');
    });
  });
});

test('the FAQ answers open from the keyboard', async ({ page }) => {
  await page.goto('/faq');
  // The answers open once the prerendered page's scripts have hydrated it.
  await page.waitForLoadState('networkidle');
  const question = page.getByRole('button', { name: 'How long can a video be?' });
  await question.focus();
  await page.keyboard.press('Enter');
  await expect(question).toHaveAttribute('aria-expanded', 'true');
  const pixverse = MODEL_VIEWS.find((m) => m.id === 'pixverse')!;
  await expect(page.getByText(`${pixverse.name} makes clips of ${choiceText(pixverse.options.find((o) => o.id === 'duration')!)}.`)).toBeVisible();
  await page.keyboard.press('Space');
  await expect(question).toHaveAttribute('aria-expanded', 'false');
});
