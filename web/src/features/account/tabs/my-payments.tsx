import { Link } from 'react-router-dom';
import { textLinkClass } from '../../../components/link-styles';
import { PaymentHistory } from '../../payments';

/** My Account > My Payments: the user's orders and credit ledger (GET /api/payments). */
export function MyPaymentsTab() {
  return (
    <div>
      <h2 className="text-lg font-semibold text-ink">My Payments</h2>
      <p className="mt-1 text-sm text-ink-muted">Your credit purchases and every change to your credit balance, newest first.</p>
      <div className="mt-5">
        <PaymentHistory
          emptyOrdersAction={
            <Link to={{ search: '?tab=buy-credits' }} className={`text-sm ${textLinkClass}`}>
              Buy credits
            </Link>
          }
        />
      </div>
    </div>
  );
}

export default MyPaymentsTab;
