import type { ComponentType } from 'react';
import { PUBLIC_PAGE_SOURCES } from '../../../contract/site';

/**
 * The public pages: prerendered to static HTML at build time (scripts/build-web.ts), listed in sitemap.xml,
 * served as their own file by CloudFront and the local server, and hydrated in the browser. Every other
 * path is either one of the app's signed-in or account routes (a single-page app, served the app shell)
 * or the not-found page (status 404). Their components follow the public-page lint rules (eslint.config.mjs).
 * The list is the contract's (PUBLIC_PAGE_SOURCES): the router's loaders are made from it.
 */
export type PageModule = { default: ComponentType };

/**
 * A lazy import per folder that holds public pages. Vite splits an import only when it can see which files it may
 * load, so each folder's is written out with the page's name as its one variable (a chunk per `*-page.tsx` there).
 */
const PAGE_FOLDERS: Readonly<Record<string, (name: string) => Promise<PageModule>>> = {
  marketing: (name) => import(`../features/marketing/${name}-page.tsx`),
  legal: (name) => import(`../features/legal/${name}-page.tsx`),
};

function loaderOf(source: string): () => Promise<PageModule> {
  const [, folder = '', name = ''] = /^src\/features\/([\w-]+)\/([\w-]+)-page\.tsx$/.exec(source) ?? [];
  const load = PAGE_FOLDERS[folder];
  if (!load) throw new Error(`Public page ${source} is not a src/features/{${Object.keys(PAGE_FOLDERS).join(',')}}/<name>-page.tsx module`);
  return () => load(name);
}

export const PUBLIC_PAGES: Readonly<Record<string, () => Promise<PageModule>>> = Object.fromEntries(
  Object.entries(PUBLIC_PAGE_SOURCES).map(([path, source]) => [path, loaderOf(source)]),
);

export const PUBLIC_PATHS = Object.keys(PUBLIC_PAGES);
