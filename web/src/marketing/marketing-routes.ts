import type { ComponentType } from 'react';
import { ensureConfig } from '../lib/config-state';
import { normalizePath } from '../lib/normalize-path';

/**
 * The pages the light marketing entry serves, by path. main.tsx reads this to choose the entry (any other
 * path starts the full app, whose router serves these pages too: app/router.tsx builds its marketingRoutes from
 * this table) and loads the page's chunk alongside the entry's.
 */
export type PageModule = { default: ComponentType };

export const MARKETING_PAGES: Readonly<Record<string, () => Promise<PageModule>>> = {
  '/': () => import('../features/marketing/landing-page'),
  '/features': () => import('../features/marketing/features-page'),
  '/learn': () => import('../features/marketing/learn-page'),
  '/contact': () => import('../features/marketing/contact-page'),
  '/example': () => import('../features/marketing/example-page'),
  '/faq': () => import('../features/marketing/faq-page'),
  '/pricing': () => import('../features/marketing/pricing-page'),
  // The terms name the support address from /config.json: render them once it is read (or has failed).
  '/terms': async () => {
    const [page] = await Promise.all([import('../features/legal/terms-page'), ensureConfig().catch(() => undefined)]);
    return page;
  },
};

/** The page loader for a path, matched like react-router does (case-insensitive, trailing slash ignored). */
export function marketingPage(pathname: string): (() => Promise<PageModule>) | undefined {
  const path = normalizePath(pathname).toLowerCase();
  return Object.hasOwn(MARKETING_PAGES, path) ? MARKETING_PAGES[path] : undefined;
}
