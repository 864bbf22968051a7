/**
 * POST /api/payments: a PayPal order at the pack's price for the caller, stored before the buyer sees PayPal; every
 * refusal (a price or pack we do not sell, a return page off the allowlist, PayPal down) stores nothing.
 * In-memory ports (test/support/fakes/payments.ts).
 */
import { Messages } from '../../contract/errors';
import { CREDIT_PACKS } from '../../contract/packs';
import { PAYMENT_RETURN_PATHS, type PaymentReturnPath } from '../../contract/payments';
import { InvalidInput, ProviderError } from '../../lambdas/domain/errors';
import { createPayment } from '../../lambdas/app/create-payment';
import { caught } from '../support/caught';
import { paymentsSetup, BUYER } from '../support/fakes/payments';

const OWNER = BUYER.sub;

describe('createPayment', () => {
  it.each(CREDIT_PACKS.flatMap((p) => [[p.id, p.amount, p.credits], [p.id, Number(p.amount), p.credits]] as const))(
    '%s from amount %p: a PayPal order at the pack price, for the caller, coming back to our API',
    async (packId, amount, credits) => {
      const { deps, paypal, orders } = paymentsSetup();
      const pack = CREDIT_PACKS.find((p) => p.id === packId)!;
      const result = await createPayment(deps, BUYER, { withdrawalConsent: true, amount, credits });
      expect(paypal.created).toEqual([
        expect.objectContaining({
          amount: { currency: 'USD', value: pack.amount },
          customId: OWNER,
          referenceId: pack.id,
          description: `Framewright: ${pack.credits} credits`,
          returnUrl: 'https://app.example.com/api/paypal/return',
          cancelUrl: 'https://app.example.com/api/paypal/cancel',
          brandName: 'Framewright',
          requestId: 'req-0',
        }),
      ]);
      expect(result).toEqual({ orderId: 'ORDER000000000001', paymentUrl: 'https://paypal.test/checkoutnow?token=ORDER000000000001' });
      expect(await orders.get(result.orderId)).toEqual({
        id: result.orderId,
        owner: OWNER,
        packId: pack.id,
        credits: pack.credits,
        amount: pack.amount,
        currency: 'USD',
        status: 'created',
        createdAt: '2026-01-02T03:04:05.000Z',
        statusAt: '2026-01-02T03:04:05.000Z',
        approvalUrl: result.paymentUrl,
        returnPath: '/',
        withdrawalConsentAt: '2026-01-02T03:04:05.000Z',
      });
    },
  );

  it.each(PAYMENT_RETURN_PATHS)('keeps returnPath %s on the order; PayPal still comes back to our API', async (returnPath) => {
    const { deps, paypal, orders } = paymentsSetup();
    const { orderId } = await createPayment(deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72, returnPath });
    expect(paypal.created[0]).toMatchObject({ returnUrl: 'https://app.example.com/api/paypal/return', cancelUrl: 'https://app.example.com/api/paypal/cancel' });
    expect((await orders.get(orderId))?.returnPath).toBe(returnPath);
  });

  it.each(['https://evil.example/', '//evil.example', '/generator/', '/admin?tab=x', '/login', '', 'generator', '/video-generator/sora', '/video-generator/'])(
    'refuses returnPath %p before asking PayPal',
    async (returnPath) => {
      const { deps, paypal, orders } = paymentsSetup();
      const err = await caught(createPayment(deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72, returnPath: returnPath as PaymentReturnPath }));
      expect(err).toBeInstanceOf(InvalidInput);
      expect(err.message).toBe(Messages.invalidReturnPath);
      expect(paypal.created).toHaveLength(0);
      expect(orders.orders.size).toBe(0);
    },
  );

  it("comes back to every available video model's generator, by its registry slug", () => {
    expect(PAYMENT_RETURN_PATHS).toEqual(expect.arrayContaining(['/video-generator/wan', '/video-generator/pixverse', '/video-generator/kling']));
  });

  it('names every allowed return path in its refusal', () => {
    for (const path of PAYMENT_RETURN_PATHS) expect(Messages.invalidReturnPath).toContain(` ${path}`);
    expect(Messages.invalidReturnPath.match(/ \/[\w/-]*/g)).toHaveLength(PAYMENT_RETURN_PATHS.length);
  });

  it.each([
    ['6.99', 150],
    ['6.994', 72],
    [6.989, 72],
    ['6.9', 72],
    ['6.99', 71],
    ['1e1', 72],
    [' ', 72],
    [Number.NaN, 72],
    [Infinity, 300],
  ] as const)('refuses %p for %p credits without asking PayPal', async (amount, credits) => {
    const { deps, paypal, orders } = paymentsSetup();
    const err = await caught(createPayment(deps, BUYER, { withdrawalConsent: true, amount, credits }));
    expect(err).toBeInstanceOf(InvalidInput);
    expect(err.message).toBe(Messages.invalidPack);
    expect(paypal.created).toHaveLength(0);
    expect(orders.orders.size).toBe(0);
  });

  it('tells the buyer to try later when PayPal is down, and stores nothing', async () => {
    const { deps, paypal, orders, logs } = paymentsSetup();
    paypal.down = true;
    const err = await caught(createPayment(deps, BUYER, { withdrawalConsent: true, amount: '6.99', credits: 72 }));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe(Messages.paymentUnavailable);
    expect(orders.orders.size).toBe(0);
    expect(logs).toHaveLength(1);
  });
});
