import { ButtonLink } from '../components/button-link';

/** Placeholder landing hero; the marketing feature adds the video, payment alert and sections. */
export function LandingPage() {
  return (
    <section className="relative isolate overflow-hidden">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute inset-x-0 -top-40 -z-10 mx-auto h-[36rem] max-w-4xl rounded-full bg-[radial-gradient(closest-side,var(--color-brand-soft),transparent)] blur-2xl"
      />
      <div className="mx-auto flex max-w-4xl flex-col items-center px-4 py-24 text-center sm:px-6 sm:py-32">
        <p className="rounded-pill border border-line bg-surface px-3 py-1 text-xs font-medium text-brand-ink">
          AI image &amp; video studio
        </p>
        <h1 className="mt-6 bg-gradient-to-br from-ink via-brand-ink to-accent bg-clip-text text-5xl font-semibold tracking-tight text-transparent sm:text-7xl">
          Framewright
        </h1>
        <p className="mt-6 max-w-2xl text-lg text-ink-muted">
          Turn a prompt or a single frame into striking images and cinematic video clips. Pay only for the credits you use.
        </p>
        <div className="mt-10 flex flex-wrap items-center justify-center gap-3">
          <ButtonLink to="/generator" size="lg">
            Start Creating
          </ButtonLink>
          <ButtonLink to="/features" size="lg" variant="ghost">
            See the models
          </ButtonLink>
        </div>
      </div>
    </section>
  );
}

export default LandingPage;
