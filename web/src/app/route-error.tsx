import { isRouteErrorResponse, useRouteError } from 'react-router-dom';
import { Button } from '../components/button';
import { ConfigError } from '../lib/config-state';
import { ConfigErrorPage } from './config-error-page';

/** Last-resort boundary for render and loader errors, including a chunk that failed to load after a deploy. */
export function RouteError() {
  const error = useRouteError();
  // The app's pages could not get the runtime configuration (after a public page was hydrated without it).
  if (error instanceof ConfigError) return <ConfigErrorPage error={error} />;
  const detail = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : undefined;
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-2xl font-semibold text-ink">Something went wrong</h1>
      {detail && <p className="max-w-lg text-sm text-ink-muted">{detail}</p>}
      <Button onClick={() => window.location.reload()}>Reload the page</Button>
    </main>
  );
}
