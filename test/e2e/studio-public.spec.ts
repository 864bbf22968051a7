/**
 * No test pattern on the public site: while the showcase media are the simulator's placeholders, the landing page says
 * "placeholder" on screen, and the sign-in pages show a designed panel instead of the clip (never an upscaled or
 * captioned placeholder). At a desktop and a phone size, axe clean.
 */
import { expect, test } from '@playwright/test';
import { SHOWCASE_RENDERS } from '../../web/src/features/marketing/showcase-renders';
import { expectNoA11yViolations } from './support/a11y';

const placeholder = (id: string) => SHOWCASE_RENDERS[id]?.provider !== 'replicate';
const TAGS = { tags: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] };

for (const viewport of [
  { name: 'desktop', width: 1440, height: 900 },
  { name: 'phone', width: 375, height: 812 },
]) {
  test(`placeholders say so; sign-in pages show no placeholder or upscaled clip (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await page.goto('/');
    const badge = page.getByTestId('placeholder-badge');
    if (placeholder('hero')) await expect(badge).toHaveText('Placeholder clip, not model output');
    else await expect(badge).toHaveCount(0);
    await expectNoA11yViolations(page, { ...TAGS, label: 'landing' });

    for (const path of ['/login', '/signup']) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible();
      const video = page.locator('video');
      if (viewport.width < 1024) await expect(video).toHaveCount(0);
      else if (placeholder('auth-loop')) {
        await expect(page.getByTestId('auth-panel')).toBeVisible();
        await expect(video).toHaveCount(0);
      } else {
        // Shown no larger than it was rendered.
        const shown = await video.evaluate((v: HTMLVideoElement) => ({ w: v.clientWidth, h: v.clientHeight }));
        const r = SHOWCASE_RENDERS['auth-loop']!;
        expect(shown.w).toBeLessThanOrEqual(r.width);
        expect(shown.h).toBeLessThanOrEqual(r.height);
      }
      await expectNoA11yViolations(page, { ...TAGS, label: path });
    }
  });
}
