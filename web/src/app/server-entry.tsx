/**
 * The prerender's entry (built by scripts/build-web.ts for Node, never shipped to browsers): renders one address of
 * the app's router to HTML with react-router's public static-rendering API, as the browser will hydrate it.
 */
import { StrictMode } from 'react';
import { renderToString } from 'react-dom/server';
import { createStaticHandler, createStaticRouter, StaticRouterProvider } from 'react-router-dom';
import { VIDEO_MODELS } from '../../../contract/models';
import { PUBLIC_PATHS } from './public-pages';
import { routes } from './router';
import { installRouterNavigation } from './router-navigation';

export { PUBLIC_PATHS };

export interface RenderedPage {
  /** The markup of #root. */
  html: string;
  /** The router's status (200: the not-found page is a route like any other; the server of the build sends 404). */
  status: number;
}

export async function renderPage(url: string): Promise<RenderedPage> {
  installRouterNavigation();
  const handler = createStaticHandler(routes);
  const context = await handler.query(new Request(url));
  if (context instanceof Response) throw new Error(`${url} answered a redirect (${context.status}); public pages must render`);
  const router = createStaticRouter(handler.dataRoutes, context);
  // No hydration script: the pages have no loaders, so the browser's router starts from the address alone, and the
  // site's CSP allows no inline script.
  const html = renderToString(
    <StrictMode>
      <StaticRouterProvider router={router} context={context} hydrate={false} />
    </StrictMode>,
  );
  return { html, status: context.statusCode };
}

/**
 * The values a route's path parameter takes, so each becomes a path of its own (CloudFront's function and the local
 * server match whole paths): every model's generator is /video-generator/<slug>.
 */
const PARAM_VALUES: Readonly<Record<string, readonly string[]>> = {
  'video-generator/:slug': VIDEO_MODELS.map((m) => m.slug),
};

/**
 * Every path of the app's router that is not a public page: the signed-in pages and account pages, served the app
 * shell (a single-page app). Any other path is the not-found page. A route with a parameter must say its values in
 * PARAM_VALUES, or the build stops (its pages would otherwise answer 404).
 */
export function appPaths(): string[] {
  const paths: string[] = [];
  const walk = (list: typeof routes, prefix: string) => {
    for (const route of list) {
      const here = route.path === undefined ? prefix : `${prefix.replace(/\/$/, '')}/${route.path}`;
      if (route.path?.includes(':')) {
        const values = PARAM_VALUES[route.path];
        if (!values) throw new Error(`The route ${route.path} has a parameter: list its values in PARAM_VALUES (server-entry.tsx)`);
        const [param] = route.path.match(/:[^/]+/)!;
        for (const v of values) paths.push(here.replace(param, v));
      } else if (route.path && !route.path.includes('*')) paths.push(here);
      if (route.children) walk(route.children, here);
    }
  };
  walk(routes, '/');
  return paths.filter((p) => !PUBLIC_PATHS.includes(p)).sort();
}
