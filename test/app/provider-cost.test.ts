/**
 * What each job cost us: an ended prediction's run time (Replicate's `metrics.predict_time`) and its cost from the
 * registry's published price go on its job once, however many deliveries and polls report it, and a refunded job's
 * billed prediction counts too; a prediction that never started (aborted) costs nothing. In-memory ports.
 */
import { applyGenerationWebhook } from '../../lambdas/app/apply-generation-webhook';
import { predictionCents, revenueCents } from '../../lambdas/domain/provider-cost';
import { BEST_PACK_CENTS_PER_CREDIT } from '../../contract/plans';
import { kling, sdxl } from '../../contract/models';
import { CALLER, generationSetup, startImageGeneration, type GenerationContext } from '../support/fakes/generation';
import { generationDelivery } from '../support/fakes/model-provider';

async function started(ctx: GenerationContext) {
  const { predictionId: jobId } = await startImageGeneration(ctx.deps, CALLER, { prompt: 'a harbour' });
  return { jobId, predictionId: ctx.provider.only().id };
}

describe("a job's provider cost", () => {
  it('a succeeded prediction: its run time and cost on the job, once per prediction whatever copies come', async () => {
    const ctx = generationSetup({ credits: 3 });
    const { jobId, predictionId } = await started(ctx);
    const done = ctx.provider.update(predictionId, { status: 'succeeded', output: ['https://replicate.delivery/out-0.png'], predictTime: 3.25 });
    await applyGenerationWebhook(ctx.deps, generationDelivery('msg-1', jobId, done));
    await applyGenerationWebhook(ctx.deps, generationDelivery('msg-2', jobId, done));
    const job = (await ctx.jobs.get(jobId))!;
    expect(job).toMatchObject({ providerSeconds: 3.25, costed: [predictionId] });
    expect(job.providerCents).toBe(predictionCents(job, 3.25));
    expect(job.providerCents).toBeGreaterThan(0);
  });

  it('a failed prediction Replicate billed costs us though the job is refunded; an aborted one costs nothing', async () => {
    const ctx = generationSetup({ credits: 3 });
    const failedJob = await started(ctx);
    const failed = ctx.provider.update(failedJob.predictionId, { status: 'failed', error: 'CUDA out of memory', predictTime: 1.5 });
    await applyGenerationWebhook(ctx.deps, generationDelivery('msg-f', failedJob.jobId, failed));
    expect(await ctx.jobs.get(failedJob.jobId)).toMatchObject({ status: 'failed', refunded: true, providerSeconds: 1.5 });
    expect((await ctx.jobs.get(failedJob.jobId))!.providerCents).toBeGreaterThan(0);

    const { predictionId: jobId2 } = await startImageGeneration(ctx.deps, CALLER, { prompt: 'a quay' });
    const aborted = ctx.provider.update([...ctx.provider.predictions.keys()][1]!, { status: 'aborted', predictTime: 0 });
    await applyGenerationWebhook(ctx.deps, generationDelivery('msg-a', jobId2, aborted));
    expect(await ctx.jobs.get(jobId2)).toMatchObject({ status: 'failed', refunded: true, providerSeconds: 0, providerCents: 0 });
  });

  it("prices from the registry: an order's published cost shared by its predictions; credits at the cheapest pack's price", () => {
    const batch = [1, 2, 3, 4].map((seed) => ({ seed }));
    expect(predictionCents({ model: sdxl.models[0]!.id, options: { count: 4 }, batch }, 2)).toBe(1);
    expect(predictionCents({ model: kling.models[0]!.id, options: { quality: '1080p', duration: 5 } }, 90)).toBe(45);
    expect(predictionCents({ model: kling.models[0]!.id, options: { quality: '1080p', duration: 5 } }, 0)).toBe(0);
    expect(revenueCents(10)).toBeCloseTo(10 * BEST_PACK_CENTS_PER_CREDIT, 2);
  });
});
