/** axe-core checks for the Playwright journeys. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

type Impact = 'minor' | 'moderate' | 'serious' | 'critical';

export interface A11yOptions {
  /** Check only this part of the page (a CSS selector); the whole page when left out. */
  include?: string;
  /** Run only the rules with these tags (e.g. 'wcag2aa'); every rule when left out. */
  tags?: string[];
  /** Count only violations of these impacts; every impact when left out. */
  impacts?: Impact[];
  /** Names what was checked in the failure message, for tests that check several states. */
  label?: string;
}

/** No axe-core violations on the page as it is now, within `options`. */
export async function expectNoA11yViolations(page: Page, options: A11yOptions = {}): Promise<void> {
  const axe = new AxeBuilder({ page });
  if (options.include) axe.include(options.include);
  if (options.tags) axe.withTags(options.tags);
  const { violations } = await axe.analyze();
  const prefix = options.label ? `${options.label}: ` : '';
  const found = violations
    .filter((v) => !options.impacts || options.impacts.includes(v.impact as Impact))
    .map((v) => `${prefix}${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
  expect(found, found.join('\n')).toEqual([]);
}
