/**
 * The Terms and Conditions ("Terms content"): one text, shown in the signup modal and on
 * the public /terms page. Last updated June 07, 2025; users must be 18 or older; no refunds except the
 * three cases; support replies within 2 business days; governed by the laws of Israel; covers video.
 */
import { CREDIT_PACKS } from '../../../../contract/packs';
import { DELETED_MEDIA_DAYS, TABLE_BACKUP_DAYS } from '../../../../contract/retention';
import { textLinkClass } from '../../components/link-styles';
import { AppLink } from '../../lib/navigation';
import { supportEmail } from './support';

export const TERMS_LAST_UPDATED = 'June 07, 2025';

export interface TermsContentProps {
  /** Heading level of the section titles: 2 on the page (under its h1), 3 in the modal (under its h2). */
  headingLevel?: 2 | 3;
}

export function TermsContent({ headingLevel = 2 }: TermsContentProps) {
  const H = headingLevel === 2 ? 'h2' : 'h3';
  const heading = 'mt-6 text-base font-semibold text-ink first:mt-0';
  const smallestPack = CREDIT_PACKS[0]!;
  const email = supportEmail();
  return (
    <div className="space-y-3 text-sm leading-relaxed text-ink-muted" data-testid="terms-content">
      <p className="text-xs uppercase tracking-wide text-ink-subtle">Last updated: {TERMS_LAST_UPDATED}</p>
      <p>
        These Terms and Conditions govern your use of Framewright, an online studio that generates images and videos
        from text prompts and optional start images using third-party AI models. By creating an account or using the
        service you agree to these terms.
      </p>

      <H className={heading}>1. Eligibility</H>
      <p>You must be 18 years of age or older to create an account and use Framewright.</p>

      <H className={heading}>2. Your account</H>
      <p>
        You sign up with your email address and a password and must verify your email before you can log in. Keep your
        password secret; you are responsible for everything done with your account. Tell us at once if you think
        someone else has used it.
      </p>
      <p>
        You can delete your account at any time in My Account, under Delete Account, after confirming your password.
        This removes your sign-in, your images and videos with their files, your prompts, your credit balance and
        history, and your share links, and cannot be undone; unused credits are not refunded. We keep the records of your
        purchases that accounting law requires (order number, pack, amount, credits, dates and PayPal&apos;s payment ids),
        without your name, email address or account. To give the free credits once per address, we keep a one-way,
        keyed fingerprint of your email address, from which the address cannot be read back.
      </p>
      <p>
        Deleted files do not vanish at once: a deleted image or video stays in our storage as a backup copy for{' '}
        {DELETED_MEDIA_DAYS} days, and deleted account records stay in our database backups for up to {TABLE_BACKUP_DAYS}{' '}
        days, to recover from mistakes; then they are removed automatically. No one can see or use them in that time, and
        we restore them only to repair a fault of ours.
      </p>

      <H className={heading}>3. Credits</H>
      <p>
        Generating content costs credits: an image costs 1 credit, and a video costs a number of credits that depends on
        the model, the duration and the quality you choose, shown before you generate. New accounts receive 10 free
        credits. You can buy credit packs (from {smallestPack.credits} credits for ${smallestPack.amount}). Credits are
        deducted when a generation starts and returned automatically if it fails. Credits have no cash value and cannot
        be transferred.
      </p>

      <H className={heading}>4. Refunds</H>
      <p>Purchases are final and are not refunded, except in these cases:</p>
      <ul className="list-disc space-y-1 pl-5">
        <li>credits you paid for are missing from your balance;</li>
        <li>credits were deducted for an image or video that was never delivered;</li>
        <li>
          a full refund of a purchase when none of its credits were used and you ask for it within 24 hours of buying.
        </li>
      </ul>
      <p>
        Right of withdrawal (EU and UK consumers): credits are digital content supplied as soon as PayPal confirms your
        payment. Before you pay, you ask us to supply them at once and acknowledge that you lose your 14-day right of
        withdrawal once you use them; we record when you did and confirm it in your receipt. Until you use any credit of
        a purchase, the refunds above still apply.
      </p>

      <H className={heading}>5. Your content</H>
      <p>
        You keep the rights you have in the prompts and images you upload, and you may use the images and videos you
        generate, subject to the terms of the underlying models. You must not upload or generate content that is
        illegal, infringes the rights of others, sexualises minors, harasses or deceives people, or depicts real people
        without their consent. We may remove content and suspend accounts that break these rules.
      </p>
      <p>
        Your results are private. When you share one, anyone with its link can see it (and its prompt, only if you
        chose to show it) until you stop sharing it or delete it.
      </p>
      <p>
        Every image and video you save carries Content Credentials: a signed C2PA manifest, embedded in the file, that
        names it as AI-generated with the model and the date it was made. Anyone can check them with a Content
        Credentials reader such as contentcredentials.org/verify.
      </p>

      <H className={heading}>6. The service</H>
      <p>
        Images and videos are produced by AI models and may be inaccurate or unexpected; a video can take a few minutes.
        We work to keep Framewright available but do not guarantee uninterrupted service, and features and models may
        change.
      </p>

      <H className={heading}>7. Liability</H>
      <p>
        Framewright is provided as is. To the extent the law allows, we are not liable for indirect or consequential
        losses, and our total liability is limited to the amount you paid us in the 12 months before the claim.
      </p>

      <H className={heading}>8. Support</H>
      <p>
        {email ? (
          <>
            Contact us at{' '}
            <a href={`mailto:${email}`} className={textLinkClass}>
              {email}
            </a>{' '}
            or through the{' '}
          </>
        ) : (
          'Contact us through the '
        )}
        <AppLink to="/contact" className={textLinkClass}>
          contact form
        </AppLink>
        . We reply within 2 business days.
      </p>

      <H className={heading}>9. Governing law</H>
      <p>
        These terms are governed by the laws of the State of Israel, and the competent courts of Israel have exclusive
        jurisdiction over any dispute arising from them.
      </p>

      <H className={heading}>10. Changes</H>
      <p>
        We may update these terms. We will show the date of the latest change at the top, and continuing to use
        Framewright after a change means you accept the updated terms.
      </p>
    </div>
  );
}
