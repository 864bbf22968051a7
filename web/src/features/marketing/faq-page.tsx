import type { ReactNode } from 'react';
import { CONTACT_LIMIT_PER_SENDER } from '../../../../contract/contact';
import { MAX_START_IMAGE_BYTES, SIGNUP_CREDITS } from '../../../../contract/catalog';
import { marketingLinkClass } from '../../components/link-styles';
import { AppLink } from '../../lib/navigation';
import { Disclosure } from './disclosure';
import { PageIntro } from './page-intro';
import { CREDIT_PACKS, formatUsd } from '../../../../contract/packs';
import { IMAGE_GENERATORS, MODEL_VIEWS, OPERATIONS, VIDEO_GENERATORS, type ModelView } from '../../../../contract/models/view';
import { choiceText, credits, listOf, priceSummary } from './price-text';

const startImageMb = Math.floor(MAX_START_IMAGE_BYTES / (1024 * 1024));

interface Faq {
  q: string;
  a: ReactNode;
}

function sections(): Array<{ id: string; title: string; items: Faq[] }> {
  const orderable = MODEL_VIEWS.filter((m) => !m.upcoming);
  const names = (group: readonly ModelView[]) => listOf(group.filter((m) => !m.upcoming).map((m) => m.name));
  const lengths = VIDEO_GENERATORS.filter((m) => !m.upcoming).map((m) => {
    const duration = m.options.find((o) => o.id === 'duration');
    return `${m.name} makes clips of ${duration ? choiceText(duration) : 'one length'}.`;
  });
  const costs = orderable.map((m) => `${m.name}: ${m.prices ? priceSummary(m.prices) : 'the price of the picture it starts from'}`);
  return [
    {
      id: 'getting-started',
      title: 'Getting Started',
      items: [
        {
          q: 'What is Framewright?',
          a: 'An online studio that turns text prompts, and optionally a start image, into AI images and short video clips. You pay per result with credits; there is nothing to install.',
        },
        {
          q: 'How do I create an account?',
          a: 'Choose Sign Up, enter your name, email and a password, and confirm your email with the code we send. You can sign in as soon as the address is verified.',
        },
        {
          q: 'Is there a free trial?',
          a: `Every new account gets ${credits(SIGNUP_CREDITS)} for free, enough to try images and a first video before you buy anything.`,
        },
        {
          q: 'I did not get the verification email.',
          a: 'Check your spam folder first. Signing in with an unverified address sends a fresh code, and the message can take a few minutes to arrive.',
        },
      ],
    },
    {
      id: 'usage',
      title: 'Usage & Features',
      items: [
        {
          q: 'Which models can I use?',
          a: (
            <>
              Images are made with {names(IMAGE_GENERATORS)}, and any image of yours can go
              through {names(OPERATIONS)}. Videos are made with {names(VIDEO_GENERATORS)}. The{' '}
              <AppLink to="/features" className={marketingLinkClass}>
                features page
              </AppLink>{' '}
              compares them.
            </>
          ),
        },
        {
          q: 'How long can a video be?',
          a: `${lengths.join(' ')} A few qualities come only at some lengths: the pricing page marks the others "not offered".`,
        },
        {
          q: 'Can I start from my own picture?',
          a: `Yes. Click the start image area or drop a file onto it. Any image type up to ${startImageMb} MB works. For video the picture becomes the first frame; for images it is restyled by the prompt.`,
        },
        {
          q: 'How long does a generation take?',
          a: 'Images are usually ready in a few seconds. Videos typically take one to two minutes and at most about three; a 10-second Wan clip is made in two parts, one after the other, and takes about twice as long. You can leave the page: the job keeps running and the result is saved to your account.',
        },
        {
          q: 'Where do I find my earlier results?',
          a: 'Under My Account, in Previous Prompts. Filter them by type, model or favourites, open any one full size, reuse its prompt or settings, download several as one zip, or delete them.',
        },
        {
          q: 'Can I share a result?',
          a: 'Yes. Open it and press Share: anyone with the link can see it, without signing in. The prompt is shown only if you tick the box. Stop sharing at any time and the link stops working.',
        },
        {
          q: 'How can people tell a result is AI-generated?',
          a: 'Every image and video you save carries Content Credentials: a signed C2PA manifest, embedded in the file, that names it as AI-generated with the model and the date it was made. Anyone can check them with a Content Credentials reader such as contentcredentials.org/verify.',
        },
        {
          q: 'How do I delete my account?',
          a: 'In My Account, open Delete Account and confirm with your password. Your sign-in, results, files, prompts, credits and share links are deleted for good. Records of purchases are kept for accounting, without your name, email address or account.',
        },
      ],
    },
    {
      id: 'billing',
      title: 'Billing & Credits',
      items: [
        {
          q: 'What does each generation cost?',
          a: (
            <>
              {costs.join('; ')}. Every option&apos;s price is on the{' '}
              <AppLink to="/pricing" className={marketingLinkClass}>
                pricing page
              </AppLink>
              .
            </>
          ),
        },
        {
          q: 'How do I buy credits?',
          a: `Open Buy Credits in a generator or in My Account, choose a pack (${CREDIT_PACKS.map((p) => `${p.credits} for ${formatUsd(p.cents)}`).join(', ')}) and pay with PayPal. The credits appear on your balance once the payment is confirmed.`,
        },
        {
          q: 'A video failed. Did I lose my credits?',
          a: 'No. Credits are reserved when a job starts and returned automatically if the model fails or the job is canceled. If your balance still looks wrong, contact us.',
        },
        {
          q: 'Can I get a refund?',
          a: (
            <>
              Refunds are given for credits that were missing after a purchase, for credits deducted without a delivered result,
              and in full if no purchased credits were used and you ask within 24 hours. The{' '}
              <AppLink to="/terms" className={marketingLinkClass}>
                terms
              </AppLink>{' '}
              have the details.
            </>
          ),
        },
        {
          q: 'Are subscriptions available?',
          a: 'Yes. Monthly plans (Starter, Creator, Studio) add credits each month when PayPal takes the payment, at a lower price per credit than the packs. Unused plan credits roll over for one more month and are spent before pack credits; pack credits never expire. Cancel any time in My Account: no further payments, and the credits you have stay.',
        },
      ],
    },
    {
      id: 'technical',
      title: 'Technical Issues',
      items: [
        {
          q: 'My generation is stuck on "Generating".',
          a: 'Videos can take up to about three minutes. The page checks progress every few seconds and picks up running jobs again after a reload. If a video has still not arrived after five minutes, write to us with the prompt and the time you started it.',
        },
        {
          q: 'My start image is refused.',
          a: `The file must be an image and smaller than ${startImageMb} MB. Large photos can be resized or saved as JPEG first.`,
        },
        {
          q: 'The video does not play in my browser.',
          a: 'Results are standard H.264 MP4 files, which every current browser plays. Try downloading the file, or update your browser. Some privacy extensions block media; allow them for this site.',
        },
        {
          q: 'I forgot my password.',
          a: 'On the login page, enter your email and choose "Forgot Password?". We email you what you need to set a new one.',
        },
      ],
    },
    {
      id: 'support',
      title: 'Contact & Support',
      items: [
        {
          q: 'How do I reach support?',
          a: (
            <>
              Use the{' '}
              <AppLink to="/contact" className={marketingLinkClass}>
                contact form
              </AppLink>{' '}
              with your email, a subject and a description. Signed-in users also find a Contact tab under My Account.
            </>
          ),
        },
        {
          q: 'When will I get an answer?',
          a: 'We work Monday to Friday, 9:00–17:00 UTC, and reply within 48 hours.',
        },
        {
          q: 'Why can I not send another message?',
          a: `To keep spam out, one address can send ${CONTACT_LIMIT_PER_SENDER} messages an hour. We read every message, so there is no need to send the same one twice.`,
        },
      ],
    },
  ];
}

export function FaqPage() {
  const all = sections();
  return (
    <>
      <PageIntro
        eyebrow="FAQ"
        title="Frequently asked questions"
        documentTitle="FAQ"
        description="Answers about getting started with Framewright, using the image and video models, credits and billing, technical issues and support."
      >
        <p>Quick answers about accounts, models, credits and support. Press a question to read its answer.</p>
      </PageIntro>
      <div className="mx-auto grid max-w-5xl gap-10 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[14rem_1fr]">
        <nav aria-label="FAQ sections" className="lg:sticky lg:top-24 lg:h-fit">
          <ul className="flex flex-wrap gap-2 lg:flex-col">
            {all.map((s) => (
              <li key={s.id}>
                <a href={`#${s.id}`} className="block rounded-control px-3 py-1.5 text-sm text-ink-muted hover:bg-surface-hover hover:text-ink">
                  {s.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="flex flex-col gap-12">
          {all.map((s) => (
            <section key={s.id} id={s.id} aria-labelledby={`${s.id}-title`} className="scroll-mt-24">
              <h2 id={`${s.id}-title`} className="text-2xl font-semibold tracking-tight text-ink">
                {s.title}
              </h2>
              <div className="mt-2">
                {s.items.map((item) => (
                  <Disclosure key={item.q} summary={item.q}>
                    {item.a}
                  </Disclosure>
                ))}
              </div>
            </section>
          ))}
        </div>
      </div>
    </>
  );
}

export default FaqPage;
