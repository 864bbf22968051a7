import type { ReactNode } from 'react';
import { createRoot } from 'react-dom/client';

export interface StartErrorPageProps {
  error: unknown;
  /** What went wrong, in words; the error's own message is shown under it. */
  message?: string;
  /** What the visitor can do; by default a 'Try again' that reloads the page. */
  action?: ReactNode;
}

/**
 * Shown when the app cannot start: by default, when the code of the page itself cannot be downloaded (offline, or
 * a new deploy replaced the files). Plain markup on purpose: main.ts loads it when the app entry itself failed.
 */
export function StartErrorPage({
  error,
  message = 'Part of the page could not be downloaded. Check your connection and try again.',
  action,
}: StartErrorPageProps) {
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <main className="flex min-h-dvh flex-col items-center justify-center gap-4 px-4 text-center">
      <h1 className="text-2xl font-semibold text-ink">Framewright could not start</h1>
      <p className="max-w-lg text-ink-muted">{message}</p>
      <p role="alert" className="max-w-lg rounded-control border border-danger/40 bg-danger-soft px-4 py-3 font-mono text-xs text-danger">
        {detail}
      </p>
      {action ?? (
        <button
          type="button"
          onClick={() => window.location.reload()}
          className="inline-flex h-10 items-center justify-center rounded-control bg-brand px-4 text-sm font-medium text-on-brand hover:bg-brand-hover"
        >
          Try again
        </button>
      )}
    </main>
  );
}

/** Replaces whatever `container` holds with the start error (main.ts's fallback when the app entry fails). */
export function renderStartError(container: HTMLElement, error: unknown): void {
  createRoot(container).render(<StartErrorPage error={error} />);
}
