import { useEffect } from 'react';
import type { PaymentReturnParams } from '../../../../contract/payments';
import { useNavigation } from '../../lib/navigation';
import { hasPaymentQuery, readPaymentReturn, withoutPaymentQuery } from './payment-messages';

/**
 * A payment return, shown once: when the query string carries payment keys, calls `show` with the
 * outcome (unless it is not one we send), then removes those keys from the address in place (other query keys, the
 * hash and the history state kept), so a reload or a shared link does not show it again. Waits while `ready` is
 * false (the signed-in pages wait for the session). Built on lib/navigation, so the light marketing entry can use
 * it. `show` should be stable (useCallback): a new one runs the check again.
 */
export function usePaymentReturn(show: (params: PaymentReturnParams) => void, ready = true): void {
  const { pathname, search, hash, state, navigate } = useNavigation();
  useEffect(() => {
    if (!ready || !hasPaymentQuery(search)) return;
    const params = readPaymentReturn(search);
    if (params) show(params);
    navigate(`${pathname}${withoutPaymentQuery(search)}${hash}`, { replace: true, state });
  }, [ready, show, pathname, search, hash, state, navigate]);
}
