/**
 * Orders v2 (create, get, capture) and captures on PayPal's REST API (paypal-api.ts).
 *
 * Why our own client and not PayPal's server SDK (@paypal/paypal-server-sdk 2.5.0, which test/local/paypal-sim-sdk.test.ts
 * uses to check the simulator): bundled as lib/bundling.ts bundles a function (esbuild, minified, node24, CJS), the
 * SDK's Client with its Orders, Payments and Subscriptions controllers is 624 kB (157 kB gzipped, 548 modules: axios
 * and the generator's runtime), more than a function may weigh (MAX_BUNDLE_BYTES, 500 kB) before any of our code,
 * and a fresh Node process takes a median 115 ms to require it (92 to 160 ms over three runs of 15, 2 busy cores).
 * Our paypal-api, paypal-client and paypal-subscriptions together are 7.7 kB of a 110 kB bundle whose rest is zod and
 * the contract every handler already carries; that whole bundle requires in a median 21 ms. The SDK also has no
 * catalog products, no v1 sales and no verify-webhook-signature, so a second client would remain for those, and it
 * still would not map PayPal's answers to our ports. Its typed models do check the simulator: the test drives the
 * simulator with it for every call of ours it covers.
 */
import { PaymentProviderUnavailable, type Money, type NewProviderOrder, type PaymentProvider, type ProviderCapture, type ProviderOrder } from '../ports/payments';
import { PaypalOrderId } from '../../contract/payments';
import { isRecord, str, type Json, type PaypalApi } from './paypal-api';

export { PAYPAL_SANDBOX_URL, paypalApi } from './paypal-api';

function money(v: unknown): Money | undefined {
  if (!isRecord(v)) return undefined;
  const currency = str(v.currency_code);
  const value = str(v.value);
  return currency && value ? { currency, value } : undefined;
}

/** PayPal's order representation reduced to what the use cases act on. */
function toProviderOrder(body: unknown): ProviderOrder {
  if (!isRecord(body) || typeof body.id !== 'string' || typeof body.status !== 'string') {
    throw new PaymentProviderUnavailable('PayPal returned an order without id or status');
  }
  const unit = Array.isArray(body.purchase_units) && isRecord(body.purchase_units[0]) ? body.purchase_units[0] : undefined;
  const payments = unit && isRecord(unit.payments) ? unit.payments : undefined;
  const captures = payments && Array.isArray(payments.captures) ? payments.captures.filter(isRecord) : [];
  const links = Array.isArray(body.links) ? body.links.filter(isRecord) : [];
  const approval = links.find((l) => l.rel === 'payer-action') ?? links.find((l) => l.rel === 'approve');
  return {
    id: body.id,
    status: body.status,
    amount: money(unit?.amount),
    customId: str(unit?.custom_id),
    captures: captures.map(toCapture),
    approvalUrl: str(approval?.href),
  };
}

function toCapture(c: Json): ProviderCapture {
  const sup = isRecord(c.supplementary_data) ? c.supplementary_data : {};
  const orderId = isRecord(sup.related_ids) ? sup.related_ids.order_id : undefined;
  return {
    id: String(c.id ?? ''),
    status: String(c.status ?? ''),
    amount: money(c.amount),
    customId: str(c.custom_id),
    ...(PaypalOrderId.safeParse(orderId).success ? { orderId: orderId as string } : {}),
  };
}

export function paypalClient(api: PaypalApi): PaymentProvider {
  const { call } = api;
  return {
    async createOrder(o: NewProviderOrder) {
      const amount = { currency_code: o.amount.currency, value: o.amount.value };
      const body = await call('POST', '/v2/checkout/orders', {
        requestId: o.requestId,
        body: {
          intent: 'CAPTURE',
          purchase_units: [
            {
              reference_id: o.referenceId,
              custom_id: o.customId,
              description: o.description,
              amount: { ...amount, breakdown: { item_total: amount } },
              items: [{ name: o.itemName, quantity: '1', unit_amount: amount, category: 'DIGITAL_GOODS' }],
            },
          ],
          payment_source: {
            paypal: {
              experience_context: {
                brand_name: o.brandName,
                user_action: 'PAY_NOW',
                shipping_preference: 'NO_SHIPPING',
                // Credits are delivered at once: no eCheck or other payment that clears days later.
                payment_method_preference: 'IMMEDIATE_PAYMENT_REQUIRED',
                return_url: o.returnUrl,
                cancel_url: o.cancelUrl,
              },
            },
          },
        },
      });
      return toProviderOrder(body);
    },

    async getOrder(id) {
      return toProviderOrder(await call('GET', `/v2/checkout/orders/${encodeURIComponent(id)}`));
    },

    async captureOrder(id, requestId) {
      return toProviderOrder(await call('POST', `/v2/checkout/orders/${encodeURIComponent(id)}/capture`, { requestId }));
    },

    async getCapture(id) {
      const body = await call('GET', `/v2/payments/captures/${encodeURIComponent(id)}`);
      if (typeof body.id !== 'string') throw new PaymentProviderUnavailable('PayPal returned a capture without id');
      return toCapture(body);
    },

  };
}
