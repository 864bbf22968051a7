/**
 * The buyer's side: GET /checkoutnow?token={id} shows the approval page (no auth); its forms POST to
 * /checkoutnow/approve and /checkoutnow/cancel, which go back to the order's return_url / cancel_url
 * (or show a result page when it has none). Cancelling leaves the order as it was, as on PayPal.
 */
import type { ServerResponse } from 'node:http';
import { redirect, withQuery } from '../shared/http';
import { fromMinor, toMinor } from './money';
import { renderApprovalPage, renderErrorPage, renderResultPage, sendPage } from './pages';
import type { State } from './state';
import { SIM_BUYER, SIM_FUNDING_OUTCOMES, type SimFundingOutcome } from './types';

export type Checkout = ReturnType<typeof createCheckout>;

export function createCheckout(state: State) {
  function checkoutPage(res: ServerResponse, token: string | null): void {
    const o = token ? state.orders.get(token) : undefined;
    if (!o) return pageNotFound(res, token);
    if (o.status === 'COMPLETED') return pageGone(res);
    if (state.expired(o)) return pageExpired(res);
    const first = o.purchase_units[0];
    const currency = first?.amount.currency_code ?? 'USD';
    const total = o.purchase_units.reduce((sum, pu) => sum + toMinor(pu.amount.value, currency), 0n);
    sendPage(
      res,
      200,
      renderApprovalPage({
        token: o.id,
        brandName: o.experience_context.brand_name ?? 'Test Store',
        lines: o.purchase_units.map((pu) => ({
          ...(pu.description !== undefined ? { description: pu.description } : {}),
          value: pu.amount.value,
          currency: pu.amount.currency_code,
        })),
        total: { value: fromMinor(total, currency), currency },
        buyerEmail: SIM_BUYER.email_address,
      }),
    );
  }

  function pageNotFound(res: ServerResponse, token: string | null): void {
    sendPage(
      res,
      token ? 404 : 400,
      renderErrorPage(
        token ? 'Checkout not found' : 'Missing checkout token',
        token ? `There is no PayPal checkout with the token ${token}. It may have expired when the simulator restarted.` : 'This link has no checkout token.',
      ),
    );
  }

  function pageGone(res: ServerResponse): void {
    sendPage(res, 410, renderErrorPage('Checkout already completed', 'This payment has already been completed, so it cannot be approved or cancelled again.'));
  }

  function pageExpired(res: ServerResponse): void {
    sendPage(res, 410, renderErrorPage('Checkout expired', 'This payment was not approved in time, so it can no longer be completed.'));
  }

  function checkoutAction(res: ServerResponse, action: 'approve' | 'cancel', raw: Buffer, query: URLSearchParams): void {
    const form = new URLSearchParams(raw.toString('utf8'));
    const token = form.get('token') ?? query.get('token');
    const o = token ? state.orders.get(token) : undefined;
    if (!o) return pageNotFound(res, token);
    if (o.status === 'COMPLETED') return pageGone(res);
    if (state.expired(o)) return pageExpired(res);
    if (action === 'approve') {
      const funding = form.get('funding') ?? 'COMPLETED';
      if (!(SIM_FUNDING_OUTCOMES as readonly string[]).includes(funding)) {
        return sendPage(res, 400, renderErrorPage('Unknown funding outcome', `Choose one of ${SIM_FUNDING_OUTCOMES.join(', ')}.`));
      }
      state.approveOrder(o, funding as SimFundingOutcome);
      const ret = o.experience_context.return_url;
      if (ret) return redirect(res, withQuery(ret, { token: o.id, PayerID: SIM_BUYER.payer_id }));
      return sendPage(res, 200, renderResultPage('Payment approved', 'You approved the payment. You can close this window and return to the merchant.'));
    }
    const cancel = o.experience_context.cancel_url;
    if (cancel) return redirect(res, withQuery(cancel, { token: o.id }));
    sendPage(res, 200, renderResultPage('Payment cancelled', 'You cancelled the payment. You can close this window and return to the merchant.'));
  }

  return { checkoutPage, checkoutAction };
}
