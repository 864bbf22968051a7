import { EmptyState } from '../../../components/empty-state';

/** My Account > My Payments. TODO(payments feature): list GET /api/payments (orders and the credit ledger). */
export function MyPaymentsTab() {
  return (
    <div>
      <h2 className="text-lg font-semibold text-ink">My Payments</h2>
      <EmptyState className="mt-5" title="Payment integration coming soon." />
    </div>
  );
}

export default MyPaymentsTab;
