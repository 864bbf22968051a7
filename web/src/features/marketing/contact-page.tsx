import { marketingLinkClass } from '../../components/link-styles';
import { AppLink } from '../../lib/navigation';
import { ContactForm } from './contact-form';
import { PageIntro } from './page-intro';

export function ContactPage() {
  return (
    <>
      <PageIntro
        eyebrow="Contact"
        title="Talk to a human"
        description="Contact Framewright support about billing, credits or generations. We answer Monday to Friday, 9:00 to 17:00 UTC, within 48 hours."
      >
        <p>Questions about credits, a payment, or a generation that did not come out right? Write to us and a person on the team will answer.</p>
      </PageIntro>
      <div className="mx-auto grid max-w-5xl gap-10 px-4 py-12 sm:px-6 sm:py-16 lg:grid-cols-[1fr_20rem]">
        <section aria-labelledby="form-title">
          <h2 id="form-title" className="text-2xl font-semibold tracking-tight text-ink">
            Send us a message
          </h2>
          <p className="mt-2 mb-6 text-sm text-ink-muted">All three fields are required.</p>
          <ContactForm />
        </section>
        <aside aria-labelledby="hours-title" className="h-fit rounded-card border border-line bg-surface p-6">
          <h2 id="hours-title" className="text-lg font-semibold text-ink">
            Support hours
          </h2>
          <p className="mt-2 text-sm text-ink-muted">
            Monday to Friday, 9:00–17:00 UTC. We reply to every message within 48 hours.
          </p>
          <h2 className="mt-6 text-lg font-semibold text-ink">Before you write</h2>
          <ul className="mt-2 list-disc space-y-1 pl-5 text-sm text-ink-muted">
            <li>
              Many answers are in the{' '}
              <AppLink to="/faq" className={marketingLinkClass}>
                FAQ
              </AppLink>
              .
            </li>
            <li>For a payment, include the date and the pack you bought.</li>
            <li>For a failed video, include the prompt and the model.</li>
          </ul>
        </aside>
      </div>
    </>
  );
}

export default ContactPage;
