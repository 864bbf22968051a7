import { ButtonLink } from '../../components/button-link';
import { marketingLinkClass } from '../../components/link-styles';
import { AppLink } from '../../lib/navigation';
import { HeroVideo } from './hero-video';
import { HERO_CLIP, heroLabel } from './media';
import { PaymentReturnAlert } from './payment-return-alert';
import { SIGNUP_CREDITS } from '../../../../contract/catalog';
import { formatUsd } from '../../../../contract/packs';
import { MODEL_VIEWS } from '../../../../contract/models/view';
import { cheapestPack, listOf, priceSummary } from './price-text';
import { generatorNames, imageModelNames, operationNames, videoModelNames } from './model-names';

/** The three steps; every model named comes from the registry (model-names.ts). */
const STEPS = [
  {
    title: 'Describe it',
    body: 'Write what you want to see: the subject, the setting, the light, the camera move. Add a start image if you want the video to begin from your own frame.',
  },
  {
    title: 'Pick a model',
    body: `Images come from ${imageModelNames()}. For video, choose ${videoModelNames().replace(/ and (?=[^,]*$)/, ' or ')}, from a prompt or a start image of your own. Any picture of yours can then go through ${operationNames().replace(/ and (?=[^,]*$)/, ' or ')}.`,
  },
  {
    title: 'Generate and keep',
    body: 'Images take seconds, videos a minute or two (at most about three). Every result is saved to your account, ready to preview, download or delete.',
  },
];

/** The public home page: hero clip, what the studio does, the models, what it costs. */
export function LandingPage() {
  const pack = cheapestPack();
  const upcoming = MODEL_VIEWS.filter((m) => m.upcoming).map((m) => m.name);
  return (
    <>
      <title>Framewright · AI image and video studio</title>
      <meta
        name="description"
        content={`Framewright turns a prompt or a single image into AI images and short video clips with ${generatorNames()}. Start with ${SIGNUP_CREDITS} free credits.`}
      />
      {/* The hero's poster is the first screen's largest image: fetched first (the build moves this into the head). */}
      <link rel="preload" as="image" href={HERO_CLIP.poster} type="image/webp" fetchPriority="high" />
      <PaymentReturnAlert />

      <section aria-labelledby="hero-title" className="relative isolate overflow-hidden">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute inset-x-0 -top-40 -z-10 mx-auto h-[36rem] max-w-4xl rounded-full bg-[radial-gradient(closest-side,var(--color-brand-soft),transparent)]"
        />
        <div className="mx-auto grid max-w-7xl items-center gap-10 px-4 py-14 sm:px-6 sm:py-20 lg:grid-cols-2 lg:gap-14">
          <div className="text-center lg:text-left">
            <p className="inline-block rounded-pill border border-line bg-surface px-3 py-1 text-xs font-medium text-brand-ink">
              AI image &amp; video studio
            </p>
            <h1
              id="hero-title"
              className="mt-6 bg-gradient-to-br from-ink via-brand-ink to-accent bg-clip-text text-5xl font-semibold tracking-tight text-transparent sm:text-7xl"
            >
              Framewright
            </h1>
            <p className="mt-4 text-2xl font-medium tracking-tight text-ink sm:text-3xl">From one prompt to a moving picture.</p>
            <p className="mt-4 text-lg text-ink-muted">
              Framewright turns a sentence, or a single still, into images and short video clips. Pay per result with
              credits, and start with {SIGNUP_CREDITS} free ones when you sign up.
            </p>
            <div className="mt-8 flex flex-wrap items-center justify-center gap-3 lg:justify-start">
              <ButtonLink to="/generator" size="lg">
                Start Creating
              </ButtonLink>
              <ButtonLink to="/example" size="lg" variant="secondary">
                See examples
              </ButtonLink>
            </div>
          </div>
          <HeroVideo clip={HERO_CLIP} label={heroLabel(HERO_CLIP)} />
        </div>
      </section>

      <section aria-labelledby="how-title" className="border-t border-line bg-surface/40">
        <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
          <h2 id="how-title" className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">
            How it works
          </h2>
          <ol className="mt-8 grid gap-6 md:grid-cols-3">
            {STEPS.map((step, i) => (
              <li key={step.title} className="rounded-card border border-line bg-surface p-6">
                <span aria-hidden="true" className="inline-flex size-8 items-center justify-center rounded-pill bg-brand-soft text-sm font-semibold text-brand-ink">
                  {i + 1}
                </span>
                <h3 className="mt-4 text-lg font-semibold text-ink">{step.title}</h3>
                <p className="mt-2 text-sm text-ink-muted">{step.body}</p>
              </li>
            ))}
          </ol>
          <p className="mt-6 text-sm text-ink-muted">
            New to prompting? The <AppLink className={marketingLinkClass} to="/learn">guide</AppLink> walks
            you through your first image and video.
          </p>
        </div>
      </section>

      <section aria-labelledby="models-title" className="border-t border-line">
        <div className="mx-auto max-w-7xl px-4 py-16 sm:px-6">
          <h2 id="models-title" className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">
            Models that fit the job
          </h2>
          <ul className="mt-8 grid gap-6 md:grid-cols-3">
            {MODEL_VIEWS.filter((m) => m.operation === 'generate' && m.prices).map((model) => (
              <li key={model.id} className="rounded-card border border-line bg-surface p-6">
                <h3 className="text-lg font-semibold text-ink">{model.name}</h3>
                <p className="mt-2 text-sm text-ink-muted">{model.tagline}</p>
                <p className="mt-4 text-sm font-medium text-ink">{priceSummary(model.prices!)}</p>
              </li>
            ))}
          </ul>
          <p className="mt-6 text-sm text-ink-muted">
            {upcoming.length > 0 && `${listOf(upcoming)} ${upcoming.length > 1 ? 'are' : 'is'} on the way. `}
            <AppLink className={marketingLinkClass} to="/features">
              Compare the models
            </AppLink>
          </p>
        </div>
      </section>

      <section aria-labelledby="price-title" className="border-t border-line bg-surface/40">
        <div className="mx-auto flex max-w-7xl flex-col items-start gap-6 px-4 py-16 sm:px-6 md:flex-row md:items-center md:justify-between">
          <div>
            <h2 id="price-title" className="text-2xl font-semibold tracking-tight text-ink sm:text-3xl">
              Pay as you go
            </h2>
            <p className="mt-3 max-w-2xl text-ink-muted">
              Buy a pack when you need it: {pack.credits} credits for {formatUsd(pack.cents)} is the smallest. Credits are only
              spent when you generate, and a failed generation gives them back.
            </p>
          </div>
          <ButtonLink to="/pricing" size="lg" variant="secondary">
            See pricing
          </ButtonLink>
        </div>
      </section>
    </>
  );
}

export default LandingPage;
