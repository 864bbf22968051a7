import { Link } from 'react-router-dom';
import { SUPPORT_EMAIL } from '../../legal/support';

const link = 'font-medium text-brand-ink underline-offset-4 hover:underline';

/** My Account > Contact: the support email and the FAQ. */
export function ContactTab() {
  return (
    <div className="max-w-xl">
      <h2 className="text-lg font-semibold text-ink">Contact</h2>
      <div className="mt-5 space-y-4 text-sm text-ink-muted">
        <p>
          Questions about your account, credits or a generation? Email us at{' '}
          <a href={`mailto:${SUPPORT_EMAIL}`} className={link}>
            {SUPPORT_EMAIL}
          </a>
          . We reply within 2 business days.
        </p>
        <p>
          Many answers are already in the{' '}
          <Link to="/faq" className={link}>
            FAQ
          </Link>
          .
        </p>
      </div>
    </div>
  );
}

export default ContactTab;
