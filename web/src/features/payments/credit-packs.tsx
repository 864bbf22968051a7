import { useEffect, useState } from 'react';
import { CREDIT_PACKS, formatUsd, type CreditPack } from '../../../../contract/packs';
import { Messages } from '../../../../contract/errors';
import { Alert } from '../../components/alert';
import { Button } from '../../components/button';
import { cx } from '../../lib/cx';
import { startPayment } from './start-payment';
import { WithdrawalConsent } from './withdrawal-consent';

export interface CreditPacksProps {
  /** Compact rows for a generator sidebar; cards for My Account. */
  layout?: 'list' | 'cards';
  className?: string;
}

/**
 * The three credit packs, each with a Buy button that creates the PayPal order on the server and goes to PayPal's
 * approval page, once the buyer ticked the withdrawal consent above them (a Buy before that says so at the box). PayPal brings the buyer back to this page when the server allows it (see startPayment).
 */
export function CreditPacks({ layout = 'list', className }: CreditPacksProps) {
  const [busy, setBusy] = useState<string | undefined>();
  const [error, setError] = useState<string | undefined>();
  const [consent, setConsent] = useState(false);
  const [needsConsent, setNeedsConsent] = useState(false);

  // Back from PayPal with the browser's Back button, the page may come from the back-forward cache with the
  // button still spinning: make the packs usable again.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setBusy(undefined);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  async function buy(pack: CreditPack) {
    if (!consent) {
      setNeedsConsent(true);
      return;
    }
    setBusy(pack.id);
    setError(undefined);
    try {
      await startPayment(pack);
    } catch (err) {
      setError(Messages.paymentInitError(err instanceof Error ? err.message : String(err)));
      setBusy(undefined);
    }
  }

  const cards = layout === 'cards';
  return (
    // A group of its own: My Account shows the plan's consent box beside this one.
    <div role="group" aria-label="Buy a credit pack" className={className}>
      <WithdrawalConsent
        className="mb-3"
        checked={consent}
        onChange={(checked) => {
          setConsent(checked);
          if (checked) setNeedsConsent(false);
        }}
        error={needsConsent ? Messages.withdrawalConsentRequired : undefined}
      />
      <ul aria-label="Credit packs" className={cx('grid', cards ? 'gap-4 sm:grid-cols-3' : 'gap-2')}>
        {CREDIT_PACKS.map((pack) => (
          <li
            key={pack.id}
            className={cx(
              'flex rounded-control border border-line bg-surface-raised',
              cards ? 'flex-col gap-4 rounded-card p-5' : 'items-center justify-between gap-3 px-3 py-2',
            )}
          >
            <div>
              <p className={cx('font-semibold text-ink', cards ? 'text-2xl' : 'text-sm')}>{pack.credits} credits</p>
              {cards ? (
                <>
                  <p className="mt-1 text-lg font-medium text-brand-ink">{formatUsd(pack.cents)}</p>
                  <p className="mt-1 text-sm text-ink-muted">About {pack.basicVideos} basic videos</p>
                </>
              ) : (
                <p className="text-xs text-ink-muted">
                  {formatUsd(pack.cents)} · about {pack.basicVideos} basic videos
                </p>
              )}
            </div>
            <Button
              size="sm"
              variant={cards ? 'primary' : 'secondary'}
              fullWidth={cards}
              className={cards ? 'mt-auto' : undefined}
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
