import { ButtonLink } from '../../components/button-link';
import { marketingLinkClass } from '../../components/link-styles';
import { AppLink } from '../../lib/navigation';
import { PLANS } from '../../../../contract/plans';
import { buyLink, subscribeLink } from '../payments/buy-link';
import { CREDIT_PACKS, formatUsd } from '../../../../contract/packs';
import { SIGNUP_CREDITS } from '../../../../contract/catalog';
import { IMAGE_GENERATORS, MODEL_VIEWS } from '../../../../contract/models/view';
import { PaymentReturnAlert } from './payment-return-alert';
import { PageIntro, Section } from './page-intro';
import { PriceTable } from './price-table';
import { SubscriptionReturnAlert } from './subscription-return-alert';
import { cheapestPrice, credits, listOf, pricePerCredit } from './price-text';

/** Every orderable model and operation with its registry price table; the upcoming ones named as coming. */
function ModelCosts() {
  const upcoming = MODEL_VIEWS.filter((m) => m.upcoming);
  return (
    <>
      <ul className="grid gap-6 lg:grid-cols-2">
        {MODEL_VIEWS.filter((m) => !m.upcoming).map((model) => (
          <li key={model.id} data-testid={`costs-${model.id}`} className="overflow-x-auto rounded-card border border-line bg-surface p-6">
            {model.prices ? (
              <PriceTable model={model} prices={model.prices} caption={model.name} captionClassName="mb-3 text-left text-lg font-semibold text-ink" />
            ) : (
              <>
                <h3 className="mb-3 text-lg font-semibold text-ink">{model.name}</h3>
                <p className="text-sm text-ink">The same price as the picture it starts from.</p>
              </>
            )}
          </li>
        ))}
      </ul>
      {upcoming.length > 0 && <p className="mt-6 text-sm text-ink-muted">Coming soon: {listOf(upcoming.map((m) => m.name))}.</p>}
    </>
  );
}

export function PricingPage() {
  const best = [...CREDIT_PACKS].sort((a, b) => a.cents / a.credits - b.cents / b.credits)[0]!;
  return (
    <>
      <PageIntro
        eyebrow="Pricing"
        title="Monthly plans and credit packs"
        documentTitle="Pricing"
        description="Framewright pricing: monthly plans from $9.99 with credits every month, or credit packs from $6.99 to pay as you go. Every image and video price in credits."
      >
        <p>
          A monthly plan gives you credits every month at a lower price per credit; packs are paid once and never expire. Both
          add up to one balance, and {credits(SIGNUP_CREDITS)} are free when you sign up.
        </p>
      </PageIntro>

      {/* Back from PayPal (a pack bought here returns here): what the server says about the order. */}
      <PaymentReturnAlert />
      {/* Back from PayPal's subscription page (a plan chosen here returns here): the plan as the server says. */}
      <SubscriptionReturnAlert />
      <Section id="plans" title="Monthly plans">
        <ul className="grid gap-6 md:grid-cols-3">
          {PLANS.map((plan) => (
            <li key={plan.id} data-testid={`plan-${plan.id}`} className="flex flex-col rounded-card border border-line bg-surface p-6 shadow-card">
              <h3 className="text-lg font-semibold text-ink">{plan.name}</h3>
              <p className="mt-3">
                <span className="text-4xl font-semibold tracking-tight text-ink">{formatUsd(plan.cents)}</span>{' '}
                <span className="text-sm text-ink-subtle">a month</span>
              </p>
              <ul className="mt-4 space-y-1 text-sm text-ink-muted">
                <li>{plan.credits} credits every month</li>
                <li>{pricePerCredit({ cents: plan.cents, credits: plan.credits })} per credit</li>
                <li>Unused credits roll over one month</li>
              </ul>
              <ButtonLink to={subscribeLink(plan, '/pricing')} variant="primary" className="mt-6" aria-label={`Subscribe to ${plan.name} for ${formatUsd(plan.cents)} a month`}>
                Subscribe with PayPal
              </ButtonLink>
            </li>
          ))}
        </ul>
        <p className="mt-6 text-sm text-ink-muted">
          Credits are added each month when PayPal takes the payment. Plan credits are spent before pack credits; cancel any time
          in My Account (no further payments; the credits you have stay).
        </p>
      </Section>

      <Section id="packs" title="Credit packs">
        <ul className="grid gap-6 md:grid-cols-3">
          {CREDIT_PACKS.map((pack) => (
            <li
              key={pack.id}
              data-testid={`pack-${pack.id}`}
              className={`relative flex flex-col rounded-card border bg-surface p-6 shadow-card ${pack.id === best.id ? 'border-brand' : 'border-line'}`}
            >
              {pack.id === best.id && (
                <p className="absolute -top-3 left-6 rounded-pill bg-brand px-3 py-0.5 text-xs font-semibold text-on-brand">Best value</p>
              )}
              <h3 className="text-lg font-semibold text-ink">{pack.credits} credits</h3>
              <p className="mt-3">
                <span className="text-4xl font-semibold tracking-tight text-ink">{formatUsd(pack.cents)}</span>{' '}
                <span className="text-sm text-ink-subtle">one-time</span>
              </p>
              <ul className="mt-4 space-y-1 text-sm text-ink-muted">
                <li>{pricePerCredit(pack)} per credit</li>
                <li>Equivalent to {pack.basicVideos} basic videos</li>
                <li>Up to {Math.floor(pack.credits / cheapestPrice(IMAGE_GENERATORS))} images</li>
              </ul>
              <ButtonLink
                to={buyLink(pack, '/pricing')}
                variant={pack.id === best.id ? 'primary' : 'secondary'}
                className="mt-6"
                aria-label={`Buy ${pack.credits} credits for ${formatUsd(pack.cents)}`}
              >
                Buy with PayPal
              </ButtonLink>
            </li>
          ))}
        </ul>
        <p className="mt-6 text-sm text-ink-muted">
          Prices in US dollars, paid securely with PayPal after you sign in (or create your account). Credits are added as soon as
          the payment is confirmed, and PayPal brings you back here.
        </p>
      </Section>

      <Section id="costs" title="What things cost" lead="Every model and operation, in credits: images by how many you ask for, videos by quality and length.">
        <ModelCosts />
        <p className="mt-6 text-sm text-ink-muted">
          Credits are returned automatically when a generation fails. Refunds of purchases follow our{' '}
          <AppLink to="/terms" className={marketingLinkClass}>
            Terms and Conditions
          </AppLink>
          ; questions go to{' '}
          <AppLink to="/contact" className={marketingLinkClass}>
            support
          </AppLink>
          .
        </p>
      </Section>
    </>
  );
}

export default PricingPage;
