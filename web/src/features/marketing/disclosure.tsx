import { useId, useState, type ReactNode } from 'react';

/**
 * A question that shows its answer when pressed: the WAI-ARIA disclosure pattern (a real button with
 * aria-expanded and aria-controls), so it works with Enter and Space and is announced as expandable.
 */
export function Disclosure({ summary, children, headingLevel = 3 }: { summary: string; children: ReactNode; headingLevel?: 3 | 4 }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const Heading = `h${headingLevel}` as const;
  return (
    <div className="border-b border-line">
      <Heading className="m-0">
        <button
          type="button"
          aria-expanded={open}
          aria-controls={panelId}
          onClick={() => setOpen((o) => !o)}
          className="flex w-full items-center justify-between gap-4 py-4 text-left font-medium text-ink hover:text-brand-ink"
        >
          <span>{summary}</span>
          <svg
            aria-hidden="true"
            viewBox="0 0 20 20"
            fill="currentColor"
            className={`size-5 shrink-0 text-ink-subtle transition-transform ${open ? 'rotate-180' : ''}`}
          >
            <path d="M5.23 7.21a.75.75 0 0 1 1.06.02L10 11.17l3.71-3.94a.75.75 0 1 1 1.08 1.04l-4.25 4.5a.75.75 0 0 1-1.08 0l-4.25-4.5a.75.75 0 0 1 .02-1.06Z" />
          </svg>
        </button>
      </Heading>
      <div id={panelId} hidden={!open} className="pb-5 text-sm leading-relaxed text-ink-muted">
        {children}
      </div>
    </div>
  );
}
