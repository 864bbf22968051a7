import { Link } from 'react-router-dom';
import { textLinkClass } from '../../../components/link-styles';
import { supportEmail } from '../../legal';

/** My Account > Contact: the support email (from the deployment's config) and the FAQ. */
function ContactTab() {
  const email = supportEmail();
  return (
    <div className="max-w-xl">
      <h2 className="text-lg font-semibold text-ink">Contact</h2>
      <div className="mt-5 space-y-4 text-sm text-ink-muted">
        <p>
          Questions about your account, credits or a generation?{' '}
          {email ? (
            <>
              Email us at{' '}
              <a href={`mailto:${email}`} className={textLinkClass}>
                {email}
              </a>{' '}
              or use the{' '}
            </>
          ) : (
            'Use the '
          )}
          <Link to="/contact" className={textLinkClass}>
            contact form
          </Link>
          . We reply within 48 hours (Mon–Fri, 9:00–17:00 UTC).
        </p>
        <p>
          Many answers are already in the{' '}
          <Link to="/faq" className={textLinkClass}>
            FAQ
          </Link>
          .
        </p>
      </div>
    </div>
  );
}

export default ContactTab;
