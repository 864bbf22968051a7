import { CreditPacks } from '../../payments';

/**
 * My Account > Buy Credits: the three packs with their equivalent basic videos. Buy goes
 * to PayPal, which brings the buyer back to My Account with the outcome.
 */
export function BuyCreditsTab() {
  return (
    <div>
      <h2 className="text-lg font-semibold text-ink">Buy Credits</h2>
      <p className="mt-1 text-sm text-ink-muted">
        Pay securely with PayPal. Credits are added to your account as soon as PayPal confirms the payment.
      </p>
      <CreditPacks layout="cards" className="mt-5" />
      <p className="mt-4 text-sm text-ink-subtle">
        The number of basic videos is a guide: an image costs 1 credit, and a video costs more depending on its model, length and
        quality.
      </p>
    </div>
  );
}

export default BuyCreditsTab;
