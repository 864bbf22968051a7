import { createRoot } from 'react-dom/client';
import { StartErrorPage } from './app/start-error-page';
import './styles/index.css';

/**
 * Boot: one router for every page (app/router.tsx). The public pages arrive prerendered and are hydrated; the
 * signed-in pages are a single-page app rendered from the app shell.
 */
const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');

import('./app/app-entry')
  .then((entry) => entry.startApp(container))
  .catch((error: unknown) => createRoot(container).render(<StartErrorPage error={error} />));
