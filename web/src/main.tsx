import { createRoot } from 'react-dom/client';
import { StartErrorPage } from './app/start-error-page';
import { marketingPage } from './marketing/marketing-routes';
import './styles/index.css';

/**
 * Boot: picks one of two entries by address. The marketing pages (MARKETING_PAGES) get the light
 * marketing entry, whose page chunk is fetched alongside it; every other address gets the full app
 * (react-router, config validation, auth). Each entry is a lazy chunk, so neither pays for the other.
 */
const container = document.getElementById('root');
if (!container) throw new Error('Missing #root element in index.html');
const root = createRoot(container);
const showError = (error: unknown) => root.render(<StartErrorPage error={error} />);

const loadPage = marketingPage(window.location.pathname);
if (loadPage) {
  Promise.all([import('./marketing/marketing-entry'), loadPage()]).then(([entry, page]) => entry.startMarketing(root, page.default), showError);
} else {
  import('./app/app-entry').then((entry) => entry.startApp(root), showError);
}
