/**
 * A webhook claim is a lease (steps/receive-webhook.ts), for both providers: a process that claimed a delivery and
 * died before applying it (killed, timed out) leaves no outcome; copies within the lease are answered 409 so the
 * provider retries, and the first copy after the lease takes the claim and applies the event. Applying is idempotent
 * by the provider's object id, so a claim taken again after a process died *after* applying changes nothing.
 * In-memory ports with the fake clock (test/support/fakes/).
 */
import { Messages } from '../../contract/errors';
import { PLANS } from '../../contract/plans';
import { WEBHOOK_LEASE_SECONDS } from '../../contract/webhooks';
import { applyGenerationWebhook } from '../../lambdas/app/apply-generation-webhook';
import { applyPaymentWebhook } from '../../lambdas/app/apply-payment-webhook';
import { subscribe } from '../../lambdas/app/subscribe';
import { Conflict } from '../../lambdas/domain/errors';
import type { ProviderSale } from '../../lambdas/ports/subscriptions';
import type { WebhookInbox } from '../../lambdas/ports/webhooks';
import { caught } from '../support/caught';
import { expectBooksBalanced } from '../support/fakes/credits';
import { CALLER, generationSetup, startImageGeneration } from '../support/fakes/generation';
import { generationDelivery } from '../support/fakes/model-provider';
import { BUYER, paypalDelivery } from '../support/fakes/payments';
import { subscriptionsSetup, type SubscriptionsContext } from '../support/fakes/subscriptions';

const LEASE_MS = WEBHOOK_LEASE_SECONDS * 1000;
const STARTER = PLANS[0]!;

class Killed extends Error {}

/** The inbox as a process sees it that is killed right after its claim lands (nothing after it runs). */
const killedAfterClaim = (inbox: WebhookInbox): WebhookInbox => ({
  ...inbox,
  claim: async (...args) => {
    await inbox.claim(...args);
    throw new Killed();
  },
});

/** The inbox as a process sees it that is killed after applying, before its settlement lands. */
const killedBeforeSettle = (inbox: WebhookInbox): WebhookInbox => ({
  claim: (...args) => inbox.claim(...args),
  release: (id) => inbox.release(id),
  settle: async () => {
    throw new Killed();
  },
});

const saleCompleted = (id: string, subscriptionId: string, sale: ProviderSale) =>
  paypalDelivery({
    id,
    event_type: 'PAYMENT.SALE.COMPLETED',
    resource: { id: sale.id, state: 'completed', amount: { total: sale.amount.value, currency: sale.amount.currency }, billing_agreement_id: subscriptionId, create_time: sale.time },
  });

async function approvedNotReturned(ctx: SubscriptionsContext) {
  await subscribe(ctx.deps, BUYER, { withdrawalConsent: true, planId: STARTER.id });
  const id = (await ctx.subscriptions.get(BUYER.sub))!.id;
  return { id, sale: ctx.subscriptionPaypal.approve(id) };
}

const planRows = (ctx: SubscriptionsContext) => ctx.credits.rowsOf(BUYER.sub).filter((l) => l.reason === 'plan');

describe('webhook claims are leases: PayPal PAYMENT.SALE.COMPLETED', () => {
  it('a claim whose process died before applying holds for the lease (409, nothing granted), then the retry grants once', async () => {
    const ctx = subscriptionsSetup();
    const { id, sale } = await approvedNotReturned(ctx);
    await expect(applyPaymentWebhook({ ...ctx.deps, inbox: killedAfterClaim(ctx.inbox) }, saleCompleted('WH-S1', id, sale))).rejects.toBeInstanceOf(Killed);
    expect(planRows(ctx)).toHaveLength(0);

    // PayPal's retries within the lease: the claim may still be running somewhere; PayPal is told to come back.
    ctx.clock.advance(LEASE_MS - 1);
    const held = await caught(applyPaymentWebhook(ctx.deps, saleCompleted('WH-S1', id, sale)));
    expect(held).toBeInstanceOf(Conflict);
    expect(held.message).toBe(Messages.webhookInProgress);
    expect(planRows(ctx)).toHaveLength(0);

    // After the lease the retry takes the claim and grants; later copies are duplicates.
    ctx.clock.advance(2);
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-S1', id, sale))).toEqual({ handled: 'granted', eventType: 'PAYMENT.SALE.COMPLETED' });
    ctx.clock.advance(LEASE_MS * 10);
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-S1', id, sale))).toEqual({ handled: 'duplicate' });
    expect(planRows(ctx).map((l) => [l.delta, l.ref])).toEqual([[STARTER.credits, sale.id]]);
    expect(ctx.inbox.claims.get('WH-S1')).toMatchObject({ outcome: 'granted' });
    expectBooksBalanced(ctx.credits);
  });

  it('a claim whose process died after granting, before settling, is taken again after the lease and grants nothing more', async () => {
    const ctx = subscriptionsSetup();
    const { id, sale } = await approvedNotReturned(ctx);
    expect(await applyPaymentWebhook({ ...ctx.deps, inbox: killedBeforeSettle(ctx.inbox) }, saleCompleted('WH-S1', id, sale))).toMatchObject({ handled: 'granted' });
    await expect(applyPaymentWebhook(ctx.deps, saleCompleted('WH-S1', id, sale))).rejects.toBeInstanceOf(Conflict);
    ctx.clock.advance(LEASE_MS + 1);
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-S1', id, sale))).toEqual({ handled: 'already-granted', eventType: 'PAYMENT.SALE.COMPLETED' });
    expect(await applyPaymentWebhook(ctx.deps, saleCompleted('WH-S1', id, sale))).toEqual({ handled: 'duplicate' });
    expect(planRows(ctx)).toHaveLength(1);
    expectBooksBalanced(ctx.credits);
  });
});

describe('webhook claims are leases: Replicate output', () => {
  async function succeeded() {
    const ctx = generationSetup({ credits: 3 });
    const { predictionId: jobId } = await startImageGeneration(ctx.deps, CALLER, { prompt: 'a harbour' });
    const done = ctx.provider.update(ctx.provider.only().id, { status: 'succeeded', output: ['https://replicate.delivery/out-0.png'] });
    return { ctx, jobId, done };
  }

  it('a claim whose process died before recording the output holds for the lease, then the retry records it once', async () => {
    const { ctx, jobId, done } = await succeeded();
    await expect(applyGenerationWebhook({ ...ctx.deps, inbox: killedAfterClaim(ctx.inbox) }, generationDelivery('msg-1', jobId, done))).rejects.toBeInstanceOf(Killed);
    expect(await ctx.jobs.get(jobId)).not.toHaveProperty('outputUrl');

    ctx.clock.advance(LEASE_MS);
    const held = await caught(applyGenerationWebhook(ctx.deps, generationDelivery('msg-1', jobId, done)));
    expect(held).toBeInstanceOf(Conflict);
    expect(await ctx.jobs.get(jobId)).not.toHaveProperty('outputUrl');

    ctx.clock.advance(1);
    expect(await applyGenerationWebhook(ctx.deps, generationDelivery('msg-1', jobId, done))).toEqual({ ok: true });
    const recordedAt = ctx.clock.now().getTime();
    ctx.clock.advance(LEASE_MS + 1);
    expect(await applyGenerationWebhook(ctx.deps, generationDelivery('msg-1', jobId, done))).toEqual({ ok: true, duplicate: true });
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'processing', outputUrl: 'https://replicate.delivery/out-0.png', outputAt: recordedAt });
    expect(ctx.credits.rowsOf(CALLER.sub).map((l) => [l.reason, l.delta])).toEqual([['purchase', 3], ['image', -1]]);
  });

  it('a claim whose process died after recording, before settling, is taken again after the lease and records nothing more', async () => {
    const { ctx, jobId, done } = await succeeded();
    expect(await applyGenerationWebhook({ ...ctx.deps, inbox: killedBeforeSettle(ctx.inbox) }, generationDelivery('msg-1', jobId, done))).toEqual({ ok: true });
    const recordedAt = ctx.clock.now().getTime();
    ctx.clock.advance(LEASE_MS + 1);
    expect(await applyGenerationWebhook(ctx.deps, generationDelivery('msg-1', jobId, done))).toEqual({ ok: true });
    expect(await ctx.jobs.get(jobId)).toMatchObject({ outputUrl: 'https://replicate.delivery/out-0.png', outputAt: recordedAt });
    expect(ctx.credits.rowsOf(CALLER.sub).map((l) => [l.reason, l.delta])).toEqual([['purchase', 3], ['image', -1]]);
  });

  it('honours a shorter lease where one is configured (the embedded stack’s kill tests)', async () => {
    const { ctx, jobId, done } = await succeeded();
    const deps = { ...ctx.deps, webhookLeaseMs: 5_000 };
    await expect(applyGenerationWebhook({ ...deps, inbox: killedAfterClaim(ctx.inbox) }, generationDelivery('msg-1', jobId, done))).rejects.toBeInstanceOf(Killed);
    ctx.clock.advance(5_001);
    expect(await applyGenerationWebhook(deps, generationDelivery('msg-1', jobId, done))).toEqual({ ok: true });
  });
});

describe('the lease', () => {
  it('is longer than every function that claims a delivery may run', () => {
    expect(Number.isFinite(LEASE_MS)).toBe(true);
    // API Gateway's integration cap, the most any webhook function can be given (lib/constructs/lambda-function.ts).
    expect(WEBHOOK_LEASE_SECONDS).toBeGreaterThan(29);
  });
});
