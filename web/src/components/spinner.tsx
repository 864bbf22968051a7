import { cx } from '../lib/cx';

const sizes = { sm: 'size-4 border-2', md: 'size-6 border-2', lg: 'size-10 border-[3px]' } as const;

export interface SpinnerProps {
  size?: keyof typeof sizes;
  /** Announced to screen readers. Ignored when decorative. */
  label?: string;
  /** Purely visual (e.g. inside a button that already says it is busy). */
  decorative?: boolean;
  className?: string;
}

export function Spinner({ size = 'md', label = 'Loading...', decorative = false, className }: SpinnerProps) {
  const ring = (
    <span
      aria-hidden="true"
      className={cx(
        'inline-block animate-spin rounded-full border-current border-r-transparent align-middle',
        sizes[size],
        className,
      )}
    />
  );
  if (decorative) return ring;
  return (
    <span role="status" className="inline-flex items-center">
      {ring}
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** A centred spinner with a visible 'Loading...' line, for whole pages and route guards. */
export function PageLoader({ label = 'Loading...' }: { label?: string }) {
  return (
    <div role="status" className="flex min-h-[40vh] flex-col items-center justify-center gap-3 text-ink-muted">
      <Spinner size="lg" decorative className="text-brand-ink" />
      <p className="text-sm">{label}</p>
    </div>
  );
}
