import type { ComponentType } from 'react';
import { createBrowserRouter, Outlet, ScrollRestoration, type RouteObject } from 'react-router-dom';
import { PageLoader } from '../components/spinner';
import { RouteError } from './route-error';

/**
 * Every page and layout is loaded on demand (`lazy`), so each is its own chunk and the landing page
 * pulls in nothing it does not render. A module passed to `page()` default-exports its component.
 */
export function page(load: () => Promise<{ default: ComponentType }>): RouteObject['lazy'] {
  return async () => ({ Component: (await load()).default });
}

/** Pages under MarketingLayout (top bar with Features, Learn, ... and Go To App). */
export const marketingRoutes: RouteObject[] = [
  { index: true, lazy: page(() => import('../features/marketing/landing-page')) },
  { path: 'features', lazy: page(() => import('../features/marketing/features-page')) },
  { path: 'learn', lazy: page(() => import('../features/marketing/learn-page')) },
  { path: 'contact', lazy: page(() => import('../features/marketing/contact-page')) },
  { path: 'example', lazy: page(() => import('../features/marketing/example-page')) },
  { path: 'faq', lazy: page(() => import('../features/marketing/faq-page')) },
  { path: 'pricing', lazy: page(() => import('../features/marketing/pricing-page')) },
];

/**
 * Pages under AppLayout (auth, generators, My Account). Protected pages go inside a guard route, e.g.
 * `{ lazy: page(() => import('../features/auth/require-auth')), children: [{ path: 'generator', ... }] }`.
 * The catch-all stays last.
 */
export const appRoutes: RouteObject[] = [{ path: '*', lazy: page(() => import('../pages/not-found-page')) }];

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
