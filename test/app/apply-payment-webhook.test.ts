/**
 * PayPal's webhooks: verified, claimed once per delivery, applied (capture, credit, take back), released when
 * applying fails so PayPal's retry settles it.
 * In-memory ports (test/support/fakes/payments.ts).
 */
import { Messages } from '../../contract/errors';
import { createPayment } from '../../lambdas/app/create-payment';
import { applyPaymentWebhook } from '../../lambdas/app/apply-payment-webhook';
import { Unauthorized } from '../../lambdas/domain/errors';
import { settleOrder } from '../../lambdas/app/steps/settle-order';
import { creditsFor } from '../../lambdas/domain/money-rules';
import { caught } from '../support/caught';
import { PaymentProviderUnavailable } from '../../lambdas/ports/payments';
import { paymentsSetup, BUYER, FakePaypal, type PaymentsContext } from '../support/fakes/payments';
import { expectBooksBalanced } from '../support/fakes/credits';

const OWNER = BUYER.sub;

describe('applyPaymentWebhook', () => {
  const delivery = (event: Record<string, unknown>) => ({ headers: {}, rawBody: JSON.stringify(event), query: {} });
  const approvedEvent = (orderId: string, id = 'WH-1') => ({ id, event_type: 'CHECKOUT.ORDER.APPROVED', resource: { id: orderId, status: 'APPROVED' } });
  const captureEvent = (orderId: string, id = 'WH-2') => ({
    id,
    event_type: 'PAYMENT.CAPTURE.COMPLETED',
    resource: { id: `CAP-${orderId}`, status: 'COMPLETED', supplementary_data: { related_ids: { order_id: orderId } } },
  });

  it('refuses what PayPal does not confirm, and records nothing', async () => {
    const ctx = paymentsSetup();
    ctx.paypal.genuine = false;
    const err = await caught(applyPaymentWebhook(ctx.deps, delivery(approvedEvent('ORDER000000000001'))));
    expect(err).toBeInstanceOf(Unauthorized);
    expect(err.message).toBe(Messages.invalidWebhookSignature);
    expect(ctx.inbox.claims.size).toBe(0);
  });

  it('CHECKOUT.ORDER.APPROVED captures and credits; a redelivery is a duplicate and asks nothing', async () => {
    const ctx = paymentsSetup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    expect(await applyPaymentWebhook(ctx.deps, delivery(approvedEvent(orderId)))).toEqual({ handled: 'credited', eventType: 'CHECKOUT.ORDER.APPROVED' });
    expect(await applyPaymentWebhook(ctx.deps, delivery(approvedEvent(orderId)))).toEqual({ handled: 'duplicate' });
    expect(await applyPaymentWebhook(ctx.deps, delivery(captureEvent(orderId)))).toEqual({ handled: 'already-credited', eventType: 'PAYMENT.CAPTURE.COMPLETED' });
    expect(ctx.paypal.captureCalls).toBe(1);
    expect(ctx.credits.ledger).toHaveLength(1);
    expect(ctx.inbox.claims.get('WH-1')).toEqual({ eventType: 'CHECKOUT.ORDER.APPROVED', orderId, outcome: 'credited' });
  });

  it('PAYMENT.CAPTURE.COMPLETED credits a capture made elsewhere without capturing again', async () => {
    const ctx = paymentsSetup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    await ctx.paypal.captureOrder(orderId);
    expect(await applyPaymentWebhook(ctx.deps, delivery(captureEvent(orderId)))).toEqual({ handled: 'credited', eventType: 'PAYMENT.CAPTURE.COMPLETED' });
    expect(ctx.paypal.captureCalls).toBe(1);
  });

  it('ignores other events and other merchants\u2019 orders, but remembers them', async () => {
    const ctx = paymentsSetup();
    expect(await applyPaymentWebhook(ctx.deps, delivery({ id: 'WH-3', event_type: 'PAYMENT.CAPTURE.REFUNDED', resource: {} }))).toEqual({ handled: 'ignored', eventType: 'PAYMENT.CAPTURE.REFUNDED' });
    expect(await applyPaymentWebhook(ctx.deps, delivery(approvedEvent('NOTOURORDER00000', 'WH-4')))).toEqual({ handled: 'unknown-order', eventType: 'CHECKOUT.ORDER.APPROVED' });
    expect([...ctx.inbox.claims.keys()]).toEqual(['WH-3', 'WH-4']);
  });

  it('fails without recording the event while PayPal is down, so the redelivery settles it', async () => {
    const ctx = paymentsSetup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    ctx.deps.provider = async () =>
      Object.assign(Object.create(ctx.paypal) as FakePaypal, {
        captureOrder: async () => {
          throw new PaymentProviderUnavailable('timeout');
        },
      });
    await expect(applyPaymentWebhook(ctx.deps, delivery(approvedEvent(orderId)))).rejects.toBeInstanceOf(PaymentProviderUnavailable);
    expect(ctx.inbox.claims.size).toBe(0);
    ctx.deps.provider = async () => ctx.paypal;
    expect(await applyPaymentWebhook(ctx.deps, delivery(approvedEvent(orderId)))).toMatchObject({ handled: 'credited' });
    expect(ctx.credits.rowsOf(OWNER).map((l) => [l.reason, l.delta])).toEqual([['purchase', 72]]);
  });

  it('credits once when ten copies of one delivery and the capture event arrive at the same moment', async () => {
    const ctx = paymentsSetup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    const settled = await Promise.allSettled([
      ...Array.from({ length: 10 }, () => applyPaymentWebhook(ctx.deps, delivery(approvedEvent(orderId)))),
      applyPaymentWebhook(ctx.deps, delivery(captureEvent(orderId))),
    ]);
    // The copies that came while the first was being applied are told to come back (409); PayPal retries them.
    const refused = settled.filter((r) => r.status === 'rejected').map((r) => (r as PromiseRejectedResult).reason as Error);
    expect(refused).toHaveLength(9);
    for (const err of refused) expect(err.message).toBe(Messages.webhookInProgress);
    const results = settled.filter((r) => r.status === 'fulfilled').map((r) => r.value);
    expect(results.filter((r) => r.handled === 'credited')).toHaveLength(1);
    // Their retry finds the delivery applied.
    expect(await applyPaymentWebhook(ctx.deps, delivery(approvedEvent(orderId)))).toEqual({ handled: 'duplicate' });
    expect(ctx.credits.rowsOf(OWNER).map((l) => [l.reason, l.delta, l.ref])).toEqual([['purchase', 72, orderId]]);
    expect(await ctx.credits.balance(OWNER)).toBe(72);
    expect(ctx.mails).toHaveLength(1);
    expectBooksBalanced(ctx.credits);
  });

  it('fails while PayPal cannot say whether a delivery is genuine, claiming nothing, so the retry is handled', async () => {
    const ctx = paymentsSetup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    ctx.paypal.down = true;
    await expect(applyPaymentWebhook(ctx.deps, delivery(approvedEvent(orderId)))).rejects.toBeInstanceOf(PaymentProviderUnavailable);
    expect(ctx.inbox.claims.size).toBe(0);
    ctx.paypal.down = false;
    expect(await applyPaymentWebhook(ctx.deps, delivery(approvedEvent(orderId)))).toMatchObject({ handled: 'credited' });
  });

  it('marks a dispute on the paid order, and an update arriving after the resolution does not reopen it', async () => {
    const ctx = paymentsSetup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    await settleOrder(ctx.deps, orderId, 'capture');
    const dispute = (id: string, type: string) => ({ id, event_type: type, resource: { disputed_transactions: [{ seller_transaction_id: `CAP-${orderId}` }] } });
    expect(await applyPaymentWebhook(ctx.deps, delivery(dispute('WH-D1', 'CUSTOMER.DISPUTE.CREATED')))).toEqual({ handled: 'disputed', eventType: 'CUSTOMER.DISPUTE.CREATED' });
    expect(ctx.orders.orders.get(orderId)!.dispute).toBe('open');
    expect(await applyPaymentWebhook(ctx.deps, delivery(dispute('WH-D2', 'CUSTOMER.DISPUTE.RESOLVED')))).toMatchObject({ handled: 'dispute-resolved' });
    expect(await applyPaymentWebhook(ctx.deps, delivery(dispute('WH-D3', 'CUSTOMER.DISPUTE.UPDATED')))).toMatchObject({ handled: 'already-applied' });
    expect(ctx.orders.orders.get(orderId)!.dispute).toBe('resolved');
    // A dispute moves no money by itself: its outcome arrives as a refund or reversal.
    expect(ctx.credits.rowsOf(OWNER).map((l) => l.reason)).toEqual(['purchase']);
  });
});

describe('taking credits back', () => {
  const delivery = (event: Record<string, unknown>) => ({ headers: {}, rawBody: JSON.stringify(event), query: {} });
  const refundEvent = (id: string, captureId: string, value: string, type = 'PAYMENT.CAPTURE.REFUNDED') => ({
    id: `WH-${id}`,
    event_type: type,
    resource: { id, status: 'COMPLETED', amount: { currency_code: 'USD', value }, links: [{ rel: 'up', method: 'GET', href: `https://api.paypal.test/v2/payments/captures/${captureId}` }] },
  });

  async function paidOrder(ctx: PaymentsContext) {
    const { orderId } = await createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    await settleOrder(ctx.deps, orderId, 'capture');
    return { orderId, captureId: `CAP-${orderId}` };
  }

  it('rounds each total half up and takes back exactly the pack when the refunds add up to the whole', () => {
    expect(creditsFor(72, 699, 699)).toBe(72);
    expect(creditsFor(72, 0, 699)).toBe(0);
    expect(creditsFor(72, 350, 699)).toBe(36);
    expect(creditsFor(72, 1, 699)).toBe(0);
    for (const split of [1, 100, 349, 350, 698]) expect(creditsFor(72, split, 699) + (72 - creditsFor(72, split, 699))).toBe(72);
    expect(creditsFor(150, 2000, 1399)).toBe(150);
  });

  it('two partial refunds take back the whole pack, each once, with refund ledger rows; a redelivered id changes nothing', async () => {
    const ctx = paymentsSetup();
    const { orderId, captureId } = await paidOrder(ctx);
    expect(await applyPaymentWebhook(ctx.deps, delivery(refundEvent('R1', captureId, '2.00')))).toEqual({ handled: 'taken-back', eventType: 'PAYMENT.CAPTURE.REFUNDED' });
    expect(ctx.orders.orders.get(orderId)).toMatchObject({ status: 'partially_refunded', refundedCents: 200, creditsTakenBack: 21 });
    // The same refund under another event id (PayPal sends a refund once per webhook, but may resend it).
    expect(await applyPaymentWebhook(ctx.deps, delivery({ ...refundEvent('R1', captureId, '2.00'), id: 'WH-again' }))).toMatchObject({ handled: 'already-applied' });
    expect(await applyPaymentWebhook(ctx.deps, delivery(refundEvent('R2', captureId, '4.99')))).toMatchObject({ handled: 'taken-back' });
    expect(ctx.orders.orders.get(orderId)).toMatchObject({ status: 'refunded', refundedCents: 699, creditsTakenBack: 72 });
    expect(ctx.credits.ledger.map((l) => [l.reason, l.delta])).toEqual([
      ['purchase', 72],
      ['purchase-refund', -21],
      ['purchase-refund', -51],
    ]);
    expect(await ctx.credits.balance(OWNER)).toBe(0);
    expectBooksBalanced(ctx.credits);
  });

  it('a reversal is a chargeback, refunds of other captures or currencies are ignored', async () => {
    const ctx = paymentsSetup();
    const { orderId, captureId } = await paidOrder(ctx);
    expect(await applyPaymentWebhook(ctx.deps, delivery(refundEvent('R9', 'NOTOURCAPTURE', '6.99')))).toMatchObject({ handled: 'unknown-order' });
    const eur = refundEvent('R8', captureId, '6.99');
    eur.resource.amount.currency_code = 'EUR';
    expect(await applyPaymentWebhook(ctx.deps, delivery(eur))).toMatchObject({ handled: 'ignored' });
    expect(await applyPaymentWebhook(ctx.deps, delivery(refundEvent('R7', captureId, '6.99', 'PAYMENT.CAPTURE.REVERSED')))).toMatchObject({ handled: 'taken-back' });
    expect(ctx.orders.orders.get(orderId)).toMatchObject({ status: 'reversed', creditsTakenBack: 72 });
    expect(ctx.credits.ledger.at(-1)).toMatchObject({ reason: 'chargeback', delta: -72 });
  });

  it('a refund that overtakes the purchase credits first, then takes back', async () => {
    const ctx = paymentsSetup();
    const { orderId } = await createPayment(ctx.deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72 });
    ctx.paypal.approve(orderId);
    await ctx.paypal.captureOrder(orderId); // captured; our return and webhooks have not arrived yet
    const captureId = `CAP-${orderId}`;
    expect(await applyPaymentWebhook(ctx.deps, delivery(refundEvent('R1', captureId, '6.99')))).toMatchObject({ handled: 'taken-back' });
    expect(ctx.credits.ledger.map((l) => l.delta)).toEqual([72, -72]);
    expect(await settleOrder(ctx.deps, orderId, 'check')).toMatchObject({ result: 'already-credited' });
    expect(ctx.credits.ledger).toHaveLength(2);
  });
});
