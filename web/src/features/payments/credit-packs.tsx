import { useState } from 'react';
import { CREDIT_PACKS, formatUsd, type CreditPack } from '../../../../contract/packs';
import { Messages } from '../../../../contract/errors';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { cx } from '../../lib/cx';
import { startPayment } from './start-payment';

export interface CreditPacksProps {
  /** Compact rows for a generator sidebar; cards for My Account. */
  layout?: 'list' | 'cards';
  className?: string;
}

/** The three credit packs, each with a button that starts a PayPal checkout. */
export function CreditPacks({ layout = 'list', className }: CreditPacksProps) {
  const [busy, setBusy] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();

  async function buy(pack: CreditPack) {
    setBusy(pack.id);
    setError(undefined);
    try {
      await startPayment(pack);
    } catch (err) {
      setError(Messages.paymentInitError(err instanceof Error ? err.message : String(err)));
      setBusy(undefined);
    }
  }

  return (
    <div className={className}>
      <ul aria-label="Credit packs" className={cx('grid gap-2', layout === 'cards' && 'gap-4 sm:grid-cols-3')}>
        {CREDIT_PACKS.map((pack) => (
          <li
            key={pack.id}
            className={cx(
              'flex items-center justify-between gap-3 rounded-control border border-line bg-surface-raised',
              layout === 'cards' ? 'flex-col items-start p-5' : 'px-3 py-2',
            )}
          >
            <div>
              <p className={cx('font-semibold text-ink', layout === 'cards' ? 'text-2xl' : 'text-sm')}>{pack.credits} credits</p>
              <p className="text-xs text-ink-muted">
                {formatUsd(pack.cents)} · about {pack.basicVideos} basic videos
              </p>
            </div>
            <Button
              size="sm"
              variant={layout === 'cards' ? 'primary' : 'secondary'}
              loading={busy === pack.id}
              disabled={busy !== undefined}
              onClick={() => void buy(pack)}
              aria-label={`Buy ${pack.credits} credits for ${formatUsd(pack.cents)}`}
            >
              Buy
            </Button>
          </li>
        ))}
      </ul>
      {error && (
        <Alert variant="error" className="mt-3">
          {error}
        </Alert>
      )}
    </div>
  );
}
