/**
 * Shown when the code of the page itself cannot be downloaded (offline, or a new deploy replaced the
 * files). Plain markup on purpose: main.tsx imports it, and main.tsx stays tiny.
 */
export function StartErrorPage({ error }: { error: unknown }) {
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-2xl font-semibold text-ink">Framewright could not start</h1>
      <p className="max-w-lg text-ink-muted">Part of the page could not be downloaded. Check your connection and try again.</p>
      <p role="alert" className="max-w-lg rounded-control border border-danger/40 bg-danger-soft px-4 py-3 font-mono text-xs text-danger">
        {detail}
      </p>
      <button
        type="button"
        onClick={() => window.location.reload()}
        className="inline-flex h-10 items-center justify-center rounded-control bg-brand px-4 text-sm font-medium text-on-brand hover:bg-brand-hover"
      >
        Try again
      </button>
    </main>
  );
}
