import type { ComponentType } from 'react';

/**
 * The public pages: prerendered to static HTML at build time (scripts/build-web.ts), listed in sitemap.xml,
 * served as their own file by CloudFront and the local server, and hydrated in the browser. Every other
 * path is either one of the app's signed-in or account routes (a single-page app, served the app shell)
 * or the not-found page (status 404). Their components follow the public-page lint rules (eslint.config.mjs).
 */
export type PageModule = { default: ComponentType };

export const PUBLIC_PAGES: Readonly<Record<string, () => Promise<PageModule>>> = {
  '/': () => import('../features/marketing/landing-page'),
  '/features': () => import('../features/marketing/features-page'),
  '/learn': () => import('../features/marketing/learn-page'),
  '/contact': () => import('../features/marketing/contact-page'),
  '/example': () => import('../features/marketing/example-page'),
  '/faq': () => import('../features/marketing/faq-page'),
  '/pricing': () => import('../features/marketing/pricing-page'),
  '/terms': () => import('../features/legal/terms-page'),
};

export const PUBLIC_PATHS = Object.keys(PUBLIC_PAGES);
