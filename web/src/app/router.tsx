import type { ComponentType } from 'react';
import { createBrowserRouter, Outlet, ScrollRestoration, type RouteObject } from 'react-router-dom';
import { PageLoader } from '../components/spinner';
import { ensureConfig } from '../lib/config-state';
import { PUBLIC_PAGES } from './public-pages';
import { RouteError } from './route-error';

/**
 * Every page and layout is loaded on demand (`lazy`), so each is its own chunk and the landing page
 * pulls in nothing it does not render. A module passed to `page()` default-exports its component.
 */
export function page(load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] {
  return async () => ({ Component: (await load()).default });
}

/** Pages under MarketingLayout (top bar with Features, Learn, ... and Go To App): the prerendered public pages. */
export const marketingRoutes: RouteObject[] = Object.entries(PUBLIC_PAGES).map(([path, load]) =>
  path === '/' ? { index: true, lazy: page(load) } : { path: path.slice(1), lazy: page(load) },
);

/**
 * Pages that need a signed-in user, rendered inside the auth guard ('Loading...' while the session is
 * checked, else a redirect to /login that comes back here after login). Features add their pages here.
 */
export const protectedRoutes: RouteObject[] = [
  { path: 'admin', lazy: page(() => import('../features/account/account-page')) },
  // A pack chosen on /pricing: straight to PayPal once signed in.
  { path: 'buy', lazy: page(() => import('../features/payments/buy-page')) },
  { path: 'generator', lazy: page(() => import('../features/image-generator/image-generator-page')) },
  // The model chooser and one generic page for every video model in the registry (unknown ones are the 404 page).
  { path: 'video-generator', lazy: page(() => import('../features/video-generator/video-chooser-page')) },
  { path: 'video-generator/:slug', lazy: page(() => import('../features/video-generator/model-page')) },
];

/**
 * Pages under AppLayout (account pages, the guarded group, 404). The catch-all stays last, outside the group that
 * needs the runtime configuration (Amplify, the API's origin): after a prerendered page was hydrated without it, it
 * is read before the first of those pages renders (never in the prerender, which has none), and a failure reaches
 * RouteError, which shows the configuration's own message as the app shell does. The not-found page needs none.
 */
export const appRoutes: RouteObject[] = [
  {
    lazy: async () => {
      if (typeof window !== 'undefined') await ensureConfig();
      return { Component: Outlet };
    },
    children: [
      { path: 'login', lazy: page(() => import('../features/auth/login-page')) },
      { path: 'signup', lazy: page(() => import('../features/auth/signup-page')) },
      { path: 'verify', lazy: page(() => import('../features/auth/verify-page')) },
      { path: 'reset-password', lazy: page(() => import('../features/auth/reset-password-page')) },
      { lazy: page(() => import('../features/auth/require-auth')), children: protectedRoutes },
    ],
  },
  { path: '*', lazy: page(() => import('../pages/not-found-page')) },
];

function Root() {
  return (
    <>
      <Outlet />
      <ScrollRestoration />
    </>
  );
}

export const routes: RouteObject[] = [
  {
    id: 'root',
    Component: Root,
    HydrateFallback: PageLoader,
    ErrorBoundary: RouteError,
    children: [
      { lazy: page(() => import('./layouts/marketing-layout')), children: marketingRoutes },
      { lazy: page(() => import('./layouts/app-layout')), children: appRoutes },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
