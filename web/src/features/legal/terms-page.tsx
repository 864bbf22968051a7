import { TermsContent } from './terms-content';

/** /terms: the public Terms and Conditions, under the marketing layout. */
export function TermsPage() {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <title>Terms and Conditions · Framewright</title>
      <meta
        name="description"
        content="Framewright's Terms and Conditions: eligibility, your account, credits, refunds, your content, the service, liability, support and governing law."
      />
      <h1 className="mb-8 text-3xl font-semibold tracking-tight text-ink sm:text-4xl">Terms and Conditions</h1>
      <TermsContent headingLevel={2} />
    </article>
  );
}

export default TermsPage;
