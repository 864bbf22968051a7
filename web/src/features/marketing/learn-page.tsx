import type { ReactNode } from 'react';
import { ButtonLink } from '../../components/button-link';
import { marketingLinkClass } from '../../components/link-styles';
import { MAX_START_IMAGE_BYTES, SIGNUP_CREDITS } from '../../../../contract/catalog';
import { formatUsd } from '../../../../contract/packs';
import { IMAGE_GENERATORS, MODEL_VIEWS } from '../../../../contract/models/view';
import { AppLink } from '../../lib/navigation';
import { PageIntro, Section } from './page-intro';
import { cheapestPack, cheapestPrice, credits, priceSummary } from './price-text';
import { imageModelNames, videoModelNames } from './model-names';

const startImageMb = Math.floor(MAX_START_IMAGE_BYTES / (1024 * 1024));

const STEPS: Array<{ title: string; body: ReactNode }> = [
  {
    title: 'Create your account',
    body: (
      <>
        Sign up with your email and a password, then confirm the address with the code we email you. Your account starts
        with {SIGNUP_CREDITS} free credits: enough for {Math.floor(SIGNUP_CREDITS / cheapestPrice(IMAGE_GENERATORS))} images, or an image and a short video.
      </>
    ),
  },
  {
    title: 'Choose what to make',
    body: (
      <>
        Open the Image Generator for stills ({imageModelNames().replace(/ and (?=[^,]*$)/, ' or ')}), or the Video Generator and pick{' '}
        {videoModelNames().replace(/ and (?=[^,]*$)/, ' or ')}. The{' '}
        <AppLink to="/features" className={marketingLinkClass}>
          features page
        </AppLink>{' '}
        compares them.
      </>
    ),
  },
  {
    title: 'Write the prompt',
    body: 'Say what is in the shot, where it is, how it is lit and, for video, how things move and how the camera moves. Concrete nouns and verbs beat long lists of adjectives.',
  },
  {
    title: 'Add a start image (optional)',
    body: `Click or drop a picture (any image type, up to ${startImageMb} MB). Image-to-video keeps its composition; for stills, the model restyles it.`,
  },
  {
    title: 'Set the options and generate',
    body: 'Pick the duration, and for Pixverse the quality. The button shows the cost before you press it. Images are ready in seconds; videos usually within one or two minutes, at most about three.',
  },
  {
    title: 'Keep, download or delete',
    body: 'Results land in your library under My Account with their prompts. Download them as PNG or MP4, or delete what you do not need.',
  },
];

const PROMPTS: Array<{ kind: string; prompt: string; why: string }> = [
  {
    kind: 'Image',
    prompt: 'Studio photo of a ceramic coffee cup on a walnut table, morning window light, soft shadows, 50 mm lens',
    why: 'Names the subject, the surface, the light and the lens: the model has little left to guess.',
  },
  {
    kind: 'Image',
    prompt: 'Flat vector illustration of a fox reading under a lamp, warm orange and teal palette, minimal shapes',
    why: 'A style plus a palette gives consistent, poster-like results.',
  },
  {
    kind: 'Video, Wan 2.1',
    prompt: 'A red kite rises over a green hill, the camera tilts up to follow it into a cloudy sky',
    why: 'One subject, one motion, one camera move: short clips work best with a single idea.',
  },
  {
    kind: 'Video, Wan 2.1 with a start image',
    prompt: 'Gentle breeze moves her hair and the scarf; she turns her head slightly toward the camera and smiles',
    why: 'With a start image, describe only the motion: the picture already sets the scene.',
  },
  {
    kind: 'Video, Pixverse',
    prompt: 'Slow dolly shot through a night market, steam rising from food stalls, lanterns swaying, shallow depth of field',
    why: 'Pixverse handles detailed scenes and camera moves well; try 720p first, then 1080p for the keeper.',
  },
];

export function LearnPage() {
  const smallest = cheapestPack();
  return (
    <>
      <PageIntro
        eyebrow="Learn"
        title="Your first clip in six steps"
        description="A step-by-step guide to Framewright: sign up, write better prompts, use start images, and understand how credits are spent."
      >
        <p>Everything you need to go from a blank prompt box to a finished video, plus prompts to borrow and how credits work.</p>
      </PageIntro>

      <Section id="steps" title="Step by step">
        <ol className="grid gap-4 md:grid-cols-2">
          {STEPS.map((step, i) => (
            <li key={step.title} className="flex gap-4 rounded-card border border-line bg-surface p-6">
              <span aria-hidden="true" className="inline-flex size-8 shrink-0 items-center justify-center rounded-pill bg-brand-soft text-sm font-semibold text-brand-ink">
                {i + 1}
              </span>
              <div>
                <h3 className="font-semibold text-ink">{step.title}</h3>
                <p className="mt-1 text-sm text-ink-muted">{step.body}</p>
              </div>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="prompts" title="Example prompts" lead="Copy one, run it, then change one thing at a time to see what each word does.">
        <ul className="space-y-4">
          {PROMPTS.map((p) => (
            <li key={p.prompt} className="rounded-card border border-line bg-surface p-6">
              <p className="text-xs font-semibold tracking-wide text-brand-ink uppercase">{p.kind}</p>
              <blockquote className="mt-2 font-mono text-sm text-ink">“{p.prompt}”</blockquote>
              <p className="mt-2 text-sm text-ink-muted">{p.why}</p>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="credits" title="How credits work">
        <div className="grid gap-6 md:grid-cols-2">
          <div className="space-y-3 text-ink-muted">
            <p>
              Credits are the studio&apos;s single currency. Every result has a fixed price, shown on the Generate button before
              you commit:
            </p>
            <ul className="list-disc space-y-1 pl-5">
              {MODEL_VIEWS.filter((m) => !m.upcoming).map((m) => (
                <li key={m.id}>
                  {m.name}: {m.prices ? priceSummary(m.prices) : 'the price of the picture it starts from'}
                </li>
              ))}
            </ul>
            <p>
              Every option&apos;s price is on the{' '}
              <AppLink to="/pricing" className={marketingLinkClass}>
                pricing
              </AppLink>{' '}
              page. Credits are reserved when a job starts. If the model fails or the job is canceled, they go straight back to your
              balance.
            </p>
          </div>
          <div className="rounded-card border border-line bg-surface p-6">
            <h3 className="font-semibold text-ink">Topping up</h3>
            <p className="mt-2 text-sm text-ink-muted">
              New accounts get {credits(SIGNUP_CREDITS)}. After that, buy a pack with PayPal from any generator or from My
              Account; packs start at {smallest.credits} credits for {formatUsd(smallest.cents)}. Credits are added as soon as
              the payment is confirmed.
            </p>
            <ButtonLink to="/pricing" variant="secondary" className="mt-4">
              Compare packs
            </ButtonLink>
          </div>
        </div>
      </Section>
    </>
  );
}

export default LearnPage;
