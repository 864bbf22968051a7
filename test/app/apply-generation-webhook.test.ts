/**
 * Replicate's webhook: verified, claimed once per delivery id, applied to the job its URL names, the claim given back
 * when applying fails so the retry lands. A success records the output (the stream saves it); a failure refunds once,
 * however many copies and polls race it.
 */
import { Messages } from '../../contract/errors';
import { applyGenerationWebhook } from '../../lambdas/app/apply-generation-webhook';
import { checkJobStatus } from '../../lambdas/app/check-job-status';
import { startImageGeneration } from '../support/fakes/generation';
import { RefundNotLanded, Unauthorized } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { expectBooksBalanced } from '../support/fakes/credits';
import { CALLER, generationSetup, type GenerationContext } from '../support/fakes/generation';
import { generationDelivery } from '../support/fakes/model-provider';

async function started(ctx: GenerationContext) {
  const { predictionId: jobId } = await startImageGeneration(ctx.deps, CALLER, { prompt: 'a harbour' });
  return { jobId, predictionId: ctx.provider.only().id };
}

describe('applyGenerationWebhook', () => {
  it('records the output of a success on the job, once per delivery id, and leaves the save to the stream', async () => {
    const ctx = generationSetup({ credits: 3 });
    const { jobId, predictionId } = await started(ctx);
    const done = ctx.provider.update(predictionId, { status: 'succeeded', output: ['https://replicate.delivery/out-0.png'] });
    expect(await applyGenerationWebhook(ctx.deps, generationDelivery('msg-1', jobId, done))).toEqual({ ok: true });
    expect(await applyGenerationWebhook(ctx.deps, generationDelivery('msg-1', jobId, done))).toEqual({ ok: true, duplicate: true });
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'processing', outputUrl: 'https://replicate.delivery/out-0.png', outputAt: ctx.clock.now().getTime() });
    expect(ctx.inbox.claims.get('msg-1')).toEqual({ jobId });
    expect(ctx.store.objects.size).toBe(0);
  });

  it('refunds a failed prediction once, in plain words, whatever copies and polls race it', async () => {
    const ctx = generationSetup({ credits: 3 });
    const { jobId, predictionId } = await started(ctx);
    const failed = ctx.provider.update(predictionId, { status: 'failed', error: 'CUDA out of memory\nTraceback ...' });
    ctx.clock.advance(10_000);
    const settled = await Promise.allSettled([
      ...Array.from({ length: 5 }, () => applyGenerationWebhook(ctx.deps, generationDelivery('msg-f', jobId, failed))),
      applyGenerationWebhook(ctx.deps, generationDelivery('msg-g', jobId, failed)),
      checkJobStatus(ctx.deps, CALLER.sub, jobId),
    ]);
    // Copies that came while the first was being applied are told to come back later (409), as Replicate retries.
    const refused = settled.filter((r) => r.status === 'rejected').map((r) => ((r as PromiseRejectedResult).reason as Error).message);
    expect(refused).toEqual(Array.from({ length: 4 }, () => Messages.webhookInProgress));
    const job = await ctx.jobs.get(jobId);
    expect(job).toMatchObject({ status: 'failed', refunded: true, error: Messages.jobRefunded(Messages.imageGenerationFailed, 1) });
    expect(ctx.credits.rowsOf(CALLER.sub).map((l) => [l.reason, l.delta])).toEqual([['purchase', 3], ['image', -1], ['refund', 1]]);
    expect(ctx.credits.activeJobs(CALLER.sub)).toBe(0);
    expectBooksBalanced(ctx.credits);
  });

  it('ignores a delivery about a prediction that is not the job’s own', async () => {
    const ctx = generationSetup({ credits: 3 });
    const { jobId, predictionId } = await started(ctx);
    const other = { id: 'pred-stranger', status: 'failed' as const, output: [] };
    await applyGenerationWebhook(ctx.deps, generationDelivery('msg-x', jobId, other));
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'starting', providerId: predictionId });
    expect(await ctx.credits.balance(CALLER.sub)).toBe(2);
  });

  it('refuses a delivery whose signature is not genuine with 401, claiming and changing nothing', async () => {
    const ctx = generationSetup({ credits: 3 });
    const { jobId, predictionId } = await started(ctx);
    const forged = generationDelivery('msg-forged', jobId, { id: predictionId, status: 'failed', output: [] }, false);
    const err = await caught(applyGenerationWebhook(ctx.deps, forged));
    expect(err).toBeInstanceOf(Unauthorized);
    expect(err.message).toBe(Messages.invalidWebhookSignature);
    expect(ctx.inbox.claims.size).toBe(0);
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'starting' });
    expect(await ctx.credits.balance(CALLER.sub)).toBe(2);
  });

  it('gives the claim back when the refund cannot land, so the retried delivery refunds', async () => {
    const ctx = generationSetup({ credits: 3 });
    const { jobId, predictionId } = await started(ctx);
    const failed = ctx.provider.update(predictionId, { status: 'failed' });
    ctx.jobs.refundFails = true;
    await expect(applyGenerationWebhook(ctx.deps, generationDelivery('msg-r', jobId, failed))).rejects.toBeInstanceOf(RefundNotLanded);
    expect(ctx.inbox.claims.has('msg-r')).toBe(false);
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'starting' });
    ctx.jobs.refundFails = false;
    expect(await applyGenerationWebhook(ctx.deps, generationDelivery('msg-r', jobId, failed))).toEqual({ ok: true });
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'failed', refunded: true });
    expect(await ctx.credits.balance(CALLER.sub)).toBe(3);
  });

  it('answers a delivery for no job of ours (or no job at all) as handled, changing nothing', async () => {
    const ctx = generationSetup({ credits: 3 });
    await started(ctx);
    expect(await applyGenerationWebhook(ctx.deps, generationDelivery('msg-n', 'no-such-job', { id: 'p', status: 'succeeded', output: ['u'] }))).toEqual({ ok: true });
    expect(await applyGenerationWebhook(ctx.deps, generationDelivery('msg-m', undefined, { id: 'p', status: 'succeeded', output: ['u'] }))).toEqual({ ok: true });
    expect(await ctx.credits.balance(CALLER.sub)).toBe(2);
  });
});
