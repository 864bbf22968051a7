import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Messages } from '../../../../contract/errors';
import { formatUsd } from '../../../../contract/packs';
import { Alert } from '../../components/alert';
import { ButtonLink } from '../../components/button-link';
import { Spinner } from '../../components/spinner';
import { readBuyLink } from './buy-link';
import { BuyMessages } from './payment-messages';
import { startPayment } from './start-payment';
import { startSubscription } from '../subscriptions';

/**
 * /buy?pack=<id>&from=<page>: a signed-in buyer (the route is behind the sign-in guard, which comes back here) goes
 * straight to PayPal's approval page for that pack, and PayPal brings them back to `from` (the pricing page's packs
 * link here). The order is created by the server from the contract's pack, as the Buy buttons do.
 */
function BuyPage() {
  const [search] = useSearchParams();
  const { pack, plan, from } = readBuyLink(search);
  const [error, setError] = useState<string | undefined>();
  const started = useRef(false);

  useEffect(() => {
    if ((!pack && !plan) || started.current) return;
    started.current = true; // once, even when StrictMode runs effects twice
    // Replace this entry: PayPal's Back button then leads to the page before, not here (which would buy again).
    const go = (url: string) => window.location.replace(url);
    (plan ? startSubscription(plan.id, from ?? '/pricing', go) : startPayment(pack!, from, go)).catch((err: unknown) =>
      setError(Messages.paymentInitError(err instanceof Error ? err.message : String(err))),
    );
  }, [pack, plan, from]);

  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-5 px-4 py-20 text-center">
      <title>Buy credits · Framewright</title>
      <h1 className="text-2xl font-semibold text-ink">
        {plan ? `Subscribe to ${plan.name}: ${plan.credits} credits a month for ${formatUsd(plan.cents)}` : pack ? `Buy ${pack.credits} credits for ${formatUsd(pack.cents)}` : 'Buy credits'}
      </h1>
      {!pack && !plan ? (
        <Alert variant="error">{BuyMessages.unknownPack}</Alert>
      ) : error ? (
        <Alert variant="error">{error}</Alert>
      ) : (
        <p className="flex items-center gap-3 text-ink-muted">
          <Spinner decorative />
          {BuyMessages.redirecting}
        </p>
      )}
      {((!pack && !plan) || error) && (
        <ButtonLink to={from ?? '/pricing'} variant="secondary">
          Back to the packs
        </ButtonLink>
      )}
    </div>
  );
}

export default BuyPage;
