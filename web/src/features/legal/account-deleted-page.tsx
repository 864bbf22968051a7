import { ButtonLink } from '../../components/button-link';
import { marketingLinkClass } from '../../components/link-styles';
import { AppLink } from '../../lib/navigation';

/**
 * /account-deleted: where deleting the account ends (My Account > Delete Account), after the session is gone. A
 * public page, so it needs no session and shows at once; it says what went and what the service keeps.
 */
export function AccountDeletedPage() {
  return (
    <article className="mx-auto max-w-3xl px-4 py-12 sm:px-6 sm:py-16">
      <title>Your account is deleted · Framewright</title>
      <meta name="description" content="Your Framewright account and its images, videos and data are deleted." />
      <meta name="robots" content="noindex" />
      <h1 className="text-3xl font-semibold tracking-tight text-ink sm:text-4xl">Your account is deleted</h1>
      <div className="mt-6 space-y-4 text-ink-muted">
        <p>
          Your account and all its data have been deleted: your sign-in, your images and videos with their files, your
          prompts, your credit balance and history, and your share links. Thank you for trying Framewright.
        </p>
        <h2 className="pt-2 text-xl font-semibold text-ink">What we keep</h2>
        <p>
          Records of your purchases are kept for accounting, as the law requires, without your name, email or account:
          the order number, pack, amount, credits and dates.
        </p>
        <p>
          Signing up again with the same email starts a new account without welcome credits. Questions? See the{' '}
          <AppLink to="/terms" className={marketingLinkClass}>
            Terms
          </AppLink>{' '}
          or{' '}
          <AppLink to="/contact" className={marketingLinkClass}>
            contact us
          </AppLink>
          .
        </p>
      </div>
      <ButtonLink to="/" className="mt-8">
        Back to the home page
      </ButtonLink>
    </article>
  );
}

export default AccountDeletedPage;
