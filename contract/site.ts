/**
 * What the build (scripts/build-web.ts) writes about the site, for the code that serves it: CloudFront's function
 * (lib/constructs/site.ts), the local server (local/web), the bench and the tests. No imports: Node and CDK read it.
 */

/** Where the prerendered pages name the site's origin; the server of the build replaces it with the real one. */
export const SITE_ORIGIN_PLACEHOLDER = 'https://site-origin.framewright.invalid';

/**
 * Where the prerendered pages name the support address (the terms' "Contact us at ..."), also in each page's
 * `<meta name="${SUPPORT_EMAIL_META}">` for the browser to hydrate with; the server of the build fills it in.
 */
export const SITE_SUPPORT_EMAIL_PLACEHOLDER = 'support@site-origin.framewright.invalid';
export const SUPPORT_EMAIL_META = 'framewright:support-email';

/** The deployment's values put into a page, the sitemap or robots.txt of the build (CDK at deploy time, local/web). */
export function fillSitePlaceholders(text: string, values: { origin: string; supportEmail: string }): string {
  return text.replaceAll(SITE_ORIGIN_PLACEHOLDER, values.origin).replaceAll(SITE_SUPPORT_EMAIL_PLACEHOLDER, values.supportEmail);
}

/** The build's description of itself, relative to web/dist. */
export const SITE_MANIFEST = '.vite/site.json';

export interface SiteManifest {
  /** Prerendered pages: '/' is index.html, '/faq' is faq/index.html. */
  publicPaths: string[];
  /** The app's routes (signed-in and account pages): served appShell, a single-page app. */
  appPaths: string[];
  appShell: string;
  /** Served with status 404 for any other extension-less path. */
  notFound: string;
  /**
   * The showcase entries (contract/showcase.ts ids) whose files the local simulator made, not a model: placeholders,
   * which a production deploy refuses. Absent in builds made before it was recorded.
   */
  placeholderMedia?: string[];
}

/**
 * The public pages, each with its module relative to web/ (a key of Vite's manifest): the one list. The router's
 * lazy loaders are made from it (web/src/app/public-pages.ts), the build prerenders each and the servers serve them.
 */
export const PUBLIC_PAGE_SOURCES: Readonly<Record<string, string>> = {
  '/': 'src/features/marketing/landing-page.tsx',
  '/features': 'src/features/marketing/features-page.tsx',
  '/learn': 'src/features/marketing/learn-page.tsx',
  '/contact': 'src/features/marketing/contact-page.tsx',
  '/example': 'src/features/marketing/example-page.tsx',
  '/faq': 'src/features/marketing/faq-page.tsx',
  '/pricing': 'src/features/marketing/pricing-page.tsx',
  '/terms': 'src/features/legal/terms-page.tsx',
  '/account-deleted': 'src/features/legal/account-deleted-page.tsx',
};

/** The file of a path in the build, as CloudFront and the local server resolve it ('/FAQ/' is '/faq'). */
export function siteFile(site: SiteManifest, pathname: string): { file: string; status: 200 | 404 } {
  const p = pathname.length > 1 ? pathname.replace(/\/+$/, '').toLowerCase() : '/';
  if (site.publicPaths.includes(p)) return { file: p === '/' ? '/index.html' : `${p}/index.html`, status: 200 };
  if (site.appPaths.includes(p)) return { file: site.appShell, status: 200 };
  return { file: site.notFound, status: 404 };
}
