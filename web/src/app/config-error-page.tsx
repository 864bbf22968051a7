import { Button } from '../components/button';
import { StartErrorPage } from './start-error-page';

/** Shown instead of the app when /config.json is missing or invalid: nothing can work without it. */
export function ConfigErrorPage({ error }: { error: unknown }) {
  return (
    <StartErrorPage
      error={error}
      message="The app configuration could not be loaded. Please try again in a moment."
      action={<Button onClick={() => window.location.reload()}>Try again</Button>}
    />
  );
}
