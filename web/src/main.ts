import './styles/index.css';
import { holdEarlyInput } from './early-input';

/**
 * Boot: one router for every page (app/router.tsx). The public pages arrive prerendered and are hydrated; the
 * signed-in pages are a single-page app rendered from the app shell.
 *
 * This module imports nothing else statically but one small helper (early-input.ts). A prerendered public page is
 * complete without script, so the app is loaded and hydrates it on the visitor's first sign of intent, and a click
 * that comes sooner is replayed once it has (early-input.ts). Any other page starts the app once the browser has
 * painted (the app shell, or the not-found page, which shows the session's links).
 */
const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

function start(): Promise<void> {
  return import('./app/app-entry')
    .then((entry) => entry.startApp(container!))
    .catch((error: unknown) => import('./app/start-error-page').then((page) => page.renderStartError(container!, error)));
}

// Set on a public page's #root by the prerender (scripts/build-web.ts). A query string is state the HTML cannot show
// (e.g. a payment's outcome on the way back from PayPal): the app starts at once, as it does on the not-found page.
if (container.dataset.hydrate === 'intent' && !window.location.search) {
  const early = holdEarlyInput(container);
  early.whenIntended(() => void start().finally(() => early.release()));
} else {
  // requestAnimationFrame runs just before the next paint; the timeout after it, once that paint is done.
  requestAnimationFrame(() => setTimeout(() => void start(), 0));
}
