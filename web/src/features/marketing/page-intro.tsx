import type { ReactNode } from 'react';

export interface PageIntroProps {
  /** Short label above the title. */
  eyebrow: string;
  title: string;
  children?: ReactNode;
  /** Document title; defaults to the page title. */
  documentTitle?: string;
  description: string;
}

/** The opening block of a marketing page: its h1, a lead paragraph, and the document title and description. */
export function PageIntro({ eyebrow, title, children, documentTitle, description }: PageIntroProps) {
  return (
    <header className="relative isolate overflow-hidden border-b border-line">
      <title>{`${documentTitle ?? title} · Framewright`}</title>
      <meta name="description" content={description} />
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 -top-48 -z-10 mx-auto h-96 max-w-3xl rounded-full bg-[radial-gradient(closest-side,var(--color-brand-soft),transparent)]"
      />
      <div className="mx-auto max-w-5xl px-4 py-14 sm:px-6 sm:py-20">
        <p className="text-sm font-semibold tracking-wide text-brand-ink uppercase">{eyebrow}</p>
        <h1 className="mt-3 text-4xl font-semibold tracking-tight text-ink sm:text-5xl">{title}</h1>
        {children && <div className="mt-5 max-w-2xl text-lg text-ink-muted">{children}</div>}
      </div>
    </header>
  );
}

/** A titled section of a marketing page; the heading labels the region. */
export function Section({ id, title, lead, children }: { id: string; title: string; lead?: ReactNode; children: ReactNode }) {
  return (
    <section aria-labelledby={`${id}-title`} className="mx-auto max-w-5xl px-4 py-12 sm:px-6 sm:py-16">
      <h2 id={`${id}-title`} className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">
        {title}
      </h2>
      {lead && <p className="mt-3 max-w-2xl text-ink-muted">{lead}</p>}
      <div className="mt-8">{children}</div>
    </section>
  );
}
