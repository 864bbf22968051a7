import type { ReactNode } from 'react';
import { PaymentReturnNotice } from '../payments';

export interface GeneratorShellProps {
  /** The page's h1 and document title. */
  title: string;
  description?: ReactNode;
  /** Above the title, e.g. a link back to the model chooser. */
  eyebrow?: ReactNode;
  /** Names the sidebar landmark, e.g. 'Image settings'. */
  sidebarLabel: string;
  sidebar: ReactNode;
  children: ReactNode;
}

/**
 * The generator page frame: the payment notice on top, a settings sidebar (left on wide screens, first on
 * phones) and the main area with the preview and the gallery.
 */
export function GeneratorShell({ title, description, eyebrow, sidebarLabel, sidebar, children }: GeneratorShellProps) {
  return (
    <section className="mx-auto w-full max-w-7xl flex-1 px-4 py-8 sm:px-6 lg:py-10">
      <title>{`${title} · Framewright`}</title>
      <div className="mb-6 empty:hidden">
        <PaymentReturnNotice />
      </div>
      <header className="mb-6">
        {eyebrow}
        <h1 className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">{title}</h1>
        {description && <p className="mt-1 max-w-2xl text-sm text-ink-muted">{description}</p>}
      </header>
      <div className="grid gap-6 lg:grid-cols-[minmax(0,22rem)_minmax(0,1fr)] lg:items-start xl:gap-8">
        <aside aria-label={sidebarLabel} className="flex min-w-0 flex-col gap-4">
          {sidebar}
        </aside>
        <div className="flex min-w-0 flex-col gap-10">{children}</div>
      </div>
    </section>
  );
}

/** The sidebar's form card. */
export function SidebarCard({ children }: { children: ReactNode }) {
  return <div className="flex flex-col gap-5 rounded-card border border-line bg-surface p-4 shadow-card sm:p-5">{children}</div>;
}

/**
 * The sidebar's error line: always in the page (a live region must exist before its text changes to be announced),
 * and empty it takes no room. Put it in a block container, not between flex gaps.
 */
export function ErrorLine({ message, id }: { message: string | undefined; id?: string }) {
  return (
    <div id={id} role="alert" className="text-sm text-danger">
      {message && (
        <p className="mb-3 flex items-start gap-2 rounded-control border border-danger/40 bg-danger-soft px-3 py-2">
          <svg aria-hidden="true" viewBox="0 0 20 20" fill="currentColor" className="mt-0.5 size-4 shrink-0">
            <path fillRule="evenodd" d="M18 10a8 8 0 1 1-16 0 8 8 0 0 1 16 0Zm-8-5a.75.75 0 0 1 .75.75v4.5a.75.75 0 0 1-1.5 0v-4.5A.75.75 0 0 1 10 5Zm0 10a1 1 0 1 0 0-2 1 1 0 0 0 0 2Z" clipRule="evenodd" />
          </svg>
          <span className="break-words">{message}</span>
        </p>
      )}
    </div>
  );
}
