/**
 * What PayPal does after a capture, on demand (not PayPal's API: the simulator's own, for people and tests):
 * GET /simulator, the dashboard page; POST /simulator/captures/{id}/refund (form or JSON `amount`, default what is
 * left), /reverse (a chargeback), /dispute (opens one), /complete and /deny (a PENDING capture);
 * POST /simulator/disputes/{id}/resolve (`favour`: buyer or seller; the buyer's win reverses the capture). Each
 * sends the webhooks PayPal would. POST /simulator/outage takes PayPal away (outage.ts). A form post comes back to the dashboard (303); JSON gets the resource.
 * No auth: the simulator runs on this machine only.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { apiError, jsonObject, sendPaypalJson } from './errors';
import { header, isJsonContentType } from '../shared/http';
import { fromMinor, toMinor } from './money';
import { renderDashboard, sendPage } from './pages';
import type { LostWebhooks, Outage } from './outage';
import type { State } from './state';
import { validateRefund } from './validation';

export type Dashboard = ReturnType<typeof createDashboard>;

export function createDashboard(state: State, outageSwitch: Outage, lostWebhooks: LostWebhooks) {
  function page(res: ServerResponse): void {
    const rows = state.allCaptures().map(({ capture, orderId }) => {
      const refunded = [...state.refunds.values()]
        .filter((r) => r.captureId === capture.id)
        .reduce((sum, r) => sum + toMinor(r.refund.amount.value, r.refund.amount.currency_code), 0n);
      const disputes = [...state.disputes.values()]
        .filter((d) => d.disputed_transactions[0]?.seller_transaction_id === capture.id)
        .map((d) => ({ id: d.dispute_id, status: d.status }));
      return {
        orderId,
        captureId: capture.id,
        status: capture.status,
        amount: capture.amount.value,
        currency: capture.amount.currency_code,
        refunded: fromMinor(refunded, capture.amount.currency_code),
        disputes,
      };
    });
    sendPage(res, 200, renderDashboard(rows));
  }

  /** The fields of a form post or a JSON body. */
  function fields(req: IncomingMessage, raw: Buffer): Record<string, string> {
    const text = raw.toString('utf8');
    if (isJsonContentType(req)) {
      if (!text.trim()) return {};
      const b = jsonObject(text);
      return Object.fromEntries(Object.entries(b).map(([k, v]) => [k, typeof v === 'string' ? v : JSON.stringify(v)]));
    }
    return Object.fromEntries(new URLSearchParams(text));
  }

  function answer(req: IncomingMessage, res: ServerResponse, status: number, body: unknown): void {
    if (isJsonContentType(req) || /application\/json/.test(header(req, 'accept') ?? '')) return sendPaypalJson(res, status, body);
    res.writeHead(303, { location: '/simulator', 'cache-control': 'no-store', 'content-length': 0 });
    res.end();
  }

  function captureAction(req: IncomingMessage, res: ServerResponse, captureId: string, action: string, raw: Buffer): void {
    const f = fields(req, raw);
    switch (action) {
      case 'refund': {
        const found = state.capture(captureId);
        const amount = f.amount?.trim();
        const input = validateRefund(amount ? { amount: { currency_code: found?.capture.amount.currency_code ?? 'USD', value: amount } } : {});
        return answer(req, res, 201, state.refundCapture(captureId, input, 'refund'));
      }
      case 'reverse':
        return answer(req, res, 201, state.refundCapture(captureId, {}, 'reversal'));
      case 'dispute':
        return answer(req, res, 201, state.openDispute(captureId));
      case 'complete':
      case 'deny':
        return answer(req, res, 200, state.settlePending(captureId, action));
      default:
        throw apiError(404, 'RESOURCE_NOT_FOUND', undefined, 'The simulator has no such action.');
    }
  }

  function resolveDispute(req: IncomingMessage, res: ServerResponse, disputeId: string, raw: Buffer): void {
    const favour = fields(req, raw).favour;
    if (favour !== 'buyer' && favour !== 'seller') {
      throw apiError(400, 'INVALID_REQUEST', [{ field: '/favour', location: 'body', issue: 'INVALID_PARAMETER_VALUE', description: 'favour must be buyer or seller.' }]);
    }
    answer(req, res, 200, state.resolveDispute(disputeId, favour));
  }

  /** POST /simulator/outage (`on`: true or false; `order`: only that order's calls and events): PayPal away, or back. */
  function outage(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    const f = fields(req, raw);
    if (f.on !== 'true' && f.on !== 'false') {
      throw apiError(400, 'INVALID_REQUEST', [{ field: '/on', location: 'body', issue: 'INVALID_PARAMETER_VALUE', description: 'on must be true or false.' }]);
    }
    outageSwitch.set(f.on === 'true', f.order?.trim() || undefined);
    answer(req, res, 200, outageSwitch.describe());
  }

  /** POST /simulator/webhooks/lost (`on`: true or false; `about`: an order, subscription or sale id): its new events are lost. */
  function lost(req: IncomingMessage, res: ServerResponse, raw: Buffer): void {
    const f = fields(req, raw);
    const about = f.about?.trim();
    if (f.on !== 'true' && f.on !== 'false') {
      throw apiError(400, 'INVALID_REQUEST', [{ field: '/on', location: 'body', issue: 'INVALID_PARAMETER_VALUE', description: 'on must be true or false.' }]);
    }
    if (!about) throw apiError(400, 'INVALID_REQUEST', [{ field: '/about', location: 'body', issue: 'MISSING_REQUIRED_PARAMETER', description: 'about names an order, subscription or sale.' }]);
    lostWebhooks.set(f.on === 'true', about);
    answer(req, res, 200, lostWebhooks.describe());
  }

  return { page, captureAction, resolveDispute, outage, lost };
}
