import { cx } from '../../lib/cx';
import { CreditsLoadError } from './credits-load-error';
import { useCredits } from './balance';

export interface CreditBalanceProps {
  className?: string;
}

/** "Credits: 10", or 'Loading...' until the balance is known, or the load error with a retry. */
export function CreditBalance({ className }: CreditBalanceProps) {
  const { credits, error } = useCredits();

  if (credits === undefined && error) {
    return <CreditsLoadError error={error} className={cx('inline-flex items-center gap-2 text-sm text-danger', className)} />;
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
