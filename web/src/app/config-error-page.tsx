import { Button } from '../components/button';

/** Shown instead of the app when /config.json is missing or invalid: nothing can work without it. */
export function ConfigErrorPage({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-2xl font-semibold text-ink">Framewright could not start</h1>
      <p className="max-w-lg text-ink-muted">The app configuration could not be loaded. Please try again in a moment.</p>
      <p role="alert" className="max-w-lg rounded-control border border-danger/40 bg-danger-soft px-4 py-3 font-mono text-xs text-danger">
        {detail}
      </p>
      <Button onClick={() => window.location.reload()}>Try again</Button>
    </main>
  );
}
