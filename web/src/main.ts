import './styles/index.css';

/**
 * Boot: one router for every page (app/router.tsx). The public pages arrive prerendered and are hydrated; the
 * signed-in pages are a single-page app rendered from the app shell.
 *
 * This module imports nothing else statically, and starts the app only after the browser has painted once: a
 * prerendered page's HTML paints without waiting for React (about 100 kB of script to download, parse and run).
 */
const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

function start(): void {
  import('./app/app-entry')
    .then((entry) => entry.startApp(container!))
    .catch((error: unknown) => import('./app/start-error-page').then((page) => page.renderStartError(container!, error)));
}

// requestAnimationFrame runs just before the next paint; the timeout after it, once that paint is done.
requestAnimationFrame(() => setTimeout(start, 0));
