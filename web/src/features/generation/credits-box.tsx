import { useEffect, useId } from 'react';
import { BuyCreditsToggle } from '../payments';
import { CreditsLoadError, readCredits, useCredits } from '../credits';
import { cx } from '../../lib/cx';
import { credits } from '../marketing';

/**
 * The generator sidebar's credits box: the balance ('Loading...' until the server has said), the load error with
 * a retry, what this page's action costs, and the Buy Credits toggle with the three packs.
 */
export function CreditsBox({ cost, className }: { cost: number; className?: string }) {
  const { credits: balance, error, refresh } = useCredits();
  const labelId = useId();

  // The session loads the balance at sign-in; a generator opened after a failed load tries again.
  useEffect(() => {
    if (readCredits().credits === undefined) void refresh();
  }, [refresh]);

  const short = balance !== undefined && balance < cost;
  return (
    <section aria-labelledby={labelId} className={cx('rounded-card border border-line bg-surface-raised p-4', className)}>
      <div className="flex items-baseline justify-between gap-3">
        <h2 id={labelId} className="text-sm font-medium text-ink-muted">
          Credit balance
        </h2>
        <p aria-live="polite" className="text-2xl font-semibold tabular-nums text-ink" data-testid="credits-box-balance">
          {balance === undefined ? (error ? '—' : 'Loading...') : balance}
        </p>
      </div>
      {balance === undefined && error && <CreditsLoadError alert error={error} className="mt-2 flex items-center gap-2 text-sm text-danger" />}
      {short && (
        <p className="mt-2 text-xs text-warning">
          This costs {credits(cost)}. Buy credits to continue.
        </p>
      )}
      <div className="mt-3">
        <BuyCreditsToggle />
      </div>
    </section>
  );
}
