import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router-dom';
import { Messages } from '../../../../contract/errors';
import { formatUsd } from '../../../../contract/packs';
import { Alert } from '../../components/alert';
import { ButtonLink } from '../../components/button-link';
import { Button } from '../../components/button';
import { readBuyLink } from './buy-link';
import { BuyMessages } from './payment-messages';
import { startPayment } from './start-payment';
import { WithdrawalConsent } from './withdrawal-consent';
import { startSubscription } from '../subscriptions';

/**
 * /buy?pack=<id>&from=<page>: a signed-in buyer (the route is behind the sign-in guard, which comes back here) confirms
 * checkout's withdrawal consent, then goes to PayPal's approval page for that pack (or plan), and PayPal brings them
 * back to `from` (the pricing page's links lead here). The order is created by the server from the contract's pack, as
 * the Buy buttons do.
 */
function BuyPage() {
  const [search] = useSearchParams();
  const { pack, plan, from } = readBuyLink(search);
  const [error, setError] = useState<string | undefined>();
  const [consent, setConsent] = useState(false);
  const [needsConsent, setNeedsConsent] = useState(false);
  const [going, setGoing] = useState(false);

  // Back from PayPal with the browser's Back button, the page may come from the back-forward cache still going.
  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setGoing(false);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  function go() {
    if (!consent) return setNeedsConsent(true);
    setGoing(true);
    setError(undefined);
    // Replace this entry: PayPal's Back button then leads to the page before, not here.
    const to = (url: string) => window.location.replace(url);
    (plan ? startSubscription(plan.id, from ?? '/pricing', to) : startPayment(pack!, from, to)).catch((err: unknown) => {
      setError(Messages.paymentInitError(err instanceof Error ? err.message : String(err)));
      setGoing(false);
    });
  }

  return (
    <div className="mx-auto flex max-w-lg flex-col items-center gap-5 px-4 py-20 text-center">
      <title>Buy credits · Framewright</title>
      <h1 className="text-2xl font-semibold text-ink">
        {plan ? `Subscribe to ${plan.name}: ${plan.credits} credits a month for ${formatUsd(plan.cents)}` : pack ? `Buy ${pack.credits} credits for ${formatUsd(pack.cents)}` : 'Buy credits'}
      </h1>
      {!pack && !plan ? (
        <Alert variant="error">{BuyMessages.unknownPack}</Alert>
      ) : (
        <>
          <WithdrawalConsent
            className="text-left"
            checked={consent}
            onChange={(checked) => {
              setConsent(checked);
              if (checked) setNeedsConsent(false);
            }}
            error={needsConsent ? Messages.withdrawalConsentRequired : undefined}
          />
          <Button size="lg" loading={going} disabled={going} onClick={go}>
            {BuyMessages.continueToPaypal}
          </Button>
          {going && !error && <p className="text-sm text-ink-muted">{BuyMessages.redirecting}</p>}
          {error && <Alert variant="error">{error}</Alert>}
        </>
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
