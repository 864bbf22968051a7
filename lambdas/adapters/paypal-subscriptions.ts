/** Catalog Products v1 and Subscriptions v1 on PayPal's REST API (paypal-api.ts). */
import { CURRENCY } from '../../contract/packs';
import { PaymentProviderUnavailable, type Money } from '../ports/payments';
import type { ProviderSale, ProviderSubscription, SubscriptionProvider } from '../ports/subscriptions';
import { isRecord, str, type Json, type PaypalApi } from './paypal-api';

/** Consecutive failed payments after which PayPal suspends a subscription (it retries in between). */
export const PAYMENT_FAILURE_THRESHOLD = 3;

function money(v: unknown): Money | undefined {
  if (!isRecord(v)) return undefined;
  const currency = str(v.currency_code) ?? str(v.currency);
  const value = str(v.value) ?? str(v.total);
  return currency && value ? { currency, value: value.replace(/^-/, '') } : undefined;
}

function toSubscription(b: Json): ProviderSubscription {
  if (typeof b.id !== 'string' || typeof b.status !== 'string' || typeof b.plan_id !== 'string') {
    throw new PaymentProviderUnavailable('PayPal returned a subscription without id, status or plan');
  }
  const billing = isRecord(b.billing_info) ? b.billing_info : {};
  const failed = isRecord(billing.last_failed_payment) ? billing.last_failed_payment : {};
  const links = Array.isArray(b.links) ? b.links.filter(isRecord) : [];
  const approve = str(links.find((l) => l.rel === 'approve')?.href);
  const nextBillingAt = str(billing.next_billing_time);
  const nextRetryAt = str(failed.next_payment_retry_time);
  const customId = str(b.custom_id);
  return {
    id: b.id,
    status: b.status,
    paypalPlanId: b.plan_id,
    failedPayments: typeof billing.failed_payments_count === 'number' ? billing.failed_payments_count : 0,
    ...(customId ? { customId } : {}),
    ...(nextBillingAt ? { nextBillingAt } : {}),
    ...(nextRetryAt ? { nextRetryAt } : {}),
    ...(approve ? { approvalUrl: approve } : {}),
  };
}

const enc = encodeURIComponent;

export function paypalSubscriptions(api: PaypalApi): SubscriptionProvider {
  const { call } = api;
  return {
    async createProduct(requestId, name) {
      const b = await call('POST', '/v1/catalogs/products', { requestId, body: { name, type: 'DIGITAL', category: 'SOFTWARE' } });
      if (typeof b.id !== 'string') throw new PaymentProviderUnavailable('PayPal returned a product without id');
      return b.id;
    },

    async createPlan(requestId, productId, plan) {
      const b = await call('POST', '/v1/billing/plans', {
        requestId,
        body: {
          product_id: productId,
          name: `${plan.name}: ${plan.credits} credits a month`,
          status: 'ACTIVE',
          billing_cycles: [
            {
              frequency: { interval_unit: 'MONTH', interval_count: 1 },
              tenure_type: 'REGULAR',
              sequence: 1,
              total_cycles: 0,
              pricing_scheme: { fixed_price: { value: plan.price, currency_code: CURRENCY } },
            },
          ],
          payment_preferences: {
            // A failed month is billed again with the next one once the buyer's funding works.
            auto_bill_outstanding: true,
            setup_fee_failure_action: 'CANCEL',
            payment_failure_threshold: PAYMENT_FAILURE_THRESHOLD,
          },
        },
      });
      if (typeof b.id !== 'string') throw new PaymentProviderUnavailable('PayPal returned a plan without id');
      return b.id;
    },

    async createSubscription(s) {
      const b = await call('POST', '/v1/billing/subscriptions', {
        requestId: s.requestId,
        body: {
          plan_id: s.paypalPlanId,
          custom_id: s.customId,
          application_context: {
            brand_name: s.brandName,
            shipping_preference: 'NO_SHIPPING',
            user_action: 'SUBSCRIBE_NOW',
            return_url: s.returnUrl,
            cancel_url: s.cancelUrl,
          },
        },
      });
      return toSubscription(b);
    },

    async getSubscription(id) {
      return toSubscription(await call('GET', `/v1/billing/subscriptions/${enc(id)}`));
    },

    async listSales(id, from, to) {
      const q = new URLSearchParams({ start_time: from.toISOString(), end_time: to.toISOString() });
      const b = await call('GET', `/v1/billing/subscriptions/${enc(id)}/transactions?${q.toString()}`);
      const list = Array.isArray(b.transactions) ? b.transactions.filter(isRecord) : [];
      return list.flatMap((t): ProviderSale[] => {
        const gross = money(isRecord(t.amount_with_breakdown) ? t.amount_with_breakdown.gross_amount : undefined);
        const saleId = str(t.id);
        return saleId && gross ? [{ id: saleId, status: str(t.status) ?? '', amount: gross, time: str(t.time) ?? '' }] : [];
      });
    },

    async getSale(id) {
      const b = await call('GET', `/v1/payments/sale/${enc(id)}`);
      const amount = money(b.amount);
      if (typeof b.id !== 'string' || !amount) throw new PaymentProviderUnavailable('PayPal returned a sale without id or amount');
      const subscriptionId = str(b.billing_agreement_id);
      return { id: b.id, status: String(b.state ?? '').toUpperCase(), amount, time: str(b.create_time) ?? '', ...(subscriptionId ? { subscriptionId } : {}) };
    },

    async cancel(id, reason) {
      await call('POST', `/v1/billing/subscriptions/${enc(id)}/cancel`, { body: { reason } });
    },

    async refundSale(saleId, requestId) {
      // A full refund is an empty body (PayPal's v1 sale refund); PayPal-Request-Id makes a retry get the first refund.
      const b = await call('POST', `/v1/payments/sale/${enc(saleId)}/refund`, { requestId, body: {} });
      const amount = money(b.amount);
      if (typeof b.id !== 'string' || !amount) throw new PaymentProviderUnavailable('PayPal returned a refund without id or amount');
      return { id: b.id, amount };
    },

    async revise(id, paypalPlanId, returnUrl, cancelUrl) {
      const b = await call('POST', `/v1/billing/subscriptions/${enc(id)}/revise`, {
        body: { plan_id: paypalPlanId, application_context: { return_url: returnUrl, cancel_url: cancelUrl, shipping_preference: 'NO_SHIPPING' } },
      });
      const links = Array.isArray(b.links) ? b.links.filter(isRecord) : [];
      const approvalUrl = str(links.find((l) => l.rel === 'approve')?.href);
      if (!approvalUrl) throw new PaymentProviderUnavailable('PayPal returned a revision without an approval link');
      return { approvalUrl };
    },
  };
}
