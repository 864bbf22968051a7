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

/**
 * Pages under MarketingLayout (top bar with Features, Learn, ... and Go To App).
 * Marketing features add `{ path: 'features', lazy: page(() => import('../features/marketing/features-page')) }`.
 */
export const marketingRoutes: RouteObject[] = [{ index: true, lazy: page(() => import('../pages/landing-page')) }];

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
