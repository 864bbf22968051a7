import { CREDIT_PACKS, formatUsd } from '../../../../../contract/packs';
import { Card } from '../../../components/card';

/**
 * My Account > Buy Credits: the three packs with their equivalent basic videos (spec section 9).
 * TODO(payments feature): a Buy button per pack (POST /api/create-paypal-payment, then redirect to PayPal).
 */
export function BuyCreditsTab() {
  return (
    <div>
      <h2 className="text-lg font-semibold text-ink">Buy Credits</h2>
      <p className="mt-1 text-sm text-ink-muted">An image costs 1 credit; a video costs more, depending on the model, its length and quality.</p>
      <ul className="mt-5 grid gap-4 sm:grid-cols-3" aria-label="Credit packs">
        {CREDIT_PACKS.map((pack) => (
          <Card as="li" key={pack.id} className="flex flex-col gap-1">
            <p className="text-2xl font-semibold text-ink">{pack.credits} credits</p>
            <p className="text-lg text-brand-ink">{formatUsd(pack.cents)}</p>
            <p className="text-sm text-ink-muted">About {pack.basicVideos} basic videos</p>
          </Card>
        ))}
      </ul>
      <p className="mt-4 text-sm text-ink-subtle">Buying credits from your account is not available yet.</p>
    </div>
  );
}

export default BuyCreditsTab;
