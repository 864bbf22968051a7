import { cx } from '../../lib/cx';
import { useCredits } from './credits-store';

export interface CreditBalanceProps {
  className?: string;
}

/** "Credits: 10", or 'Loading...' until the balance is known, or the load error with a retry. */
export function CreditBalance({ className }: CreditBalanceProps) {
  const credits = useCredits((s) => s.credits);
  const error = useCredits((s) => s.error);
  const refresh = useCredits((s) => s.refresh);

  if (credits === undefined && error) {
    return (
      <span className={cx('inline-flex items-center gap-2 text-sm text-danger', className)}>
        {error}
        <button type="button" onClick={() => void refresh()} className="rounded-control underline hover:text-ink">
          Retry
        </button>
      </span>
    );
  }
  return (
    <span className={cx('inline-flex items-center gap-1.5 text-sm', className)} aria-live="polite">
      <span className="text-ink-muted">Credits:</span>
      <span className="font-semibold text-ink" data-testid="credit-balance">
        {credits === undefined ? 'Loading...' : credits}
      </span>
    </span>
  );
}
