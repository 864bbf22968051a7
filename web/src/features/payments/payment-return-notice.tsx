import { useEffect, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { Messages } from '../../../../contract/errors';
import { PaymentReturnParams } from '../../../../contract/payments';
import { Alert, type AlertVariant } from '../../components/alert';
import { useSession } from '../auth';
import { useCredits } from '../credits';

interface Notice {
  variant: AlertVariant;
  text: string;
}

/** What the generators say about `?payment=...` (spec section 4). The server has already credited. */
export function paymentNotice(params: PaymentReturnParams, currentSub: string | undefined): Notice {
  switch (params.payment) {
    case 'success':
      if (params.userId && currentSub && params.userId !== currentSub) return { variant: 'error', text: Messages.paymentUserMismatch };
      return { variant: 'success', text: Messages.paymentAdded(params.credits ?? 0) };
    case 'cancel':
      return { variant: 'info', text: Messages.paymentCanceled };
    case 'pending':
      return { variant: 'info', text: Messages.paymentPending };
    default:
      return { variant: 'error', text: Messages.paymentFailed };
  }
}

/**
 * Shows the payment outcome carried by the query string, re-reads the balance from the server (the client never
 * adds credits), then clears the query string.
 */
export function PaymentReturnNotice() {
  const location = useLocation();
  const navigate = useNavigate();
  const { user } = useSession();
  const refresh = useCredits((s) => s.refresh);
  const [notice, setNotice] = useState<Notice | undefined>();

  useEffect(() => {
    const query = new URLSearchParams(location.search);
    if (!query.has('payment') || !user) return;
    const parsed = PaymentReturnParams.safeParse(Object.fromEntries(query));
    if (parsed.success) {
      setNotice(paymentNotice(parsed.data, user.sub));
      void refresh();
    }
    navigate({ pathname: location.pathname, search: '', hash: location.hash }, { replace: true, state: location.state });
  }, [location, navigate, refresh, user]);

  if (!notice) return null;
  return (
    <Alert variant={notice.variant} onDismiss={() => setNotice(undefined)}>
      {notice.text}
    </Alert>
  );
}
