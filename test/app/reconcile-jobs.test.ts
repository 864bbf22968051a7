/**
 * The job reconciler, the net under every job: each open job is settled from the provider's own state, whether or not
 * a webhook came. A lost create call, a prediction the provider lost, one past its model's time and an output whose
 * save is overdue each end, refunded once or saved; one job's trouble does not hold back the others.
 */
import { maxRunMsOf, typicalMsOf } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { DEFAULT_LIMITS, reconcileJobs } from '../../lambdas/app/reconcile-jobs';
import { startImageGeneration } from '../support/fakes/generation';
import { newId } from '../../lambdas/domain/ids';
import type { Job } from '../../lambdas/ports/jobs';
import { expectBooksBalanced } from '../support/fakes/credits';
import { CALLER, generationSetup, png, WEBHOOK_URL, type GenerationContext } from '../support/fakes/generation';

const SDXL = 'stability-ai/sdxl';

async function started(ctx: GenerationContext, prompt = 'a mill') {
  const { predictionId: jobId } = await startImageGeneration(ctx.deps, CALLER, { prompt });
  return { jobId, predictionId: [...ctx.provider.predictions.values()].at(-1)!.id };
}

/** A job charged by a function that died before the provider's answer came back (so none is recorded). */
async function orphaned(ctx: GenerationContext, withPrediction: boolean): Promise<Job> {
  const now = ctx.clock.now();
  const job: Job = { id: newId(now), owner: CALLER.sub, kind: 'image', model: SDXL, prompt: 'lost', options: {}, cost: 1, status: 'pending', createdAt: now.toISOString(), countsActive: true };
  expect(await ctx.jobs.createCharged(job, undefined, undefined, 4)).toMatchObject({ ok: true });
  if (withPrediction) await ctx.provider.create({ model: SDXL, input: {}, webhookUrl: `${WEBHOOK_URL}?job=${job.id}` });
  return job;
}

const statusOf = async (ctx: GenerationContext, id: string) => (await ctx.jobs.get(id))!;

describe('reconcileJobs', () => {
  it('leaves young jobs alone, then cancels what a lost create call made and refunds once', async () => {
    const ctx = generationSetup({ credits: 3 });
    const job = await orphaned(ctx, true);
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 1, settled: { waiting: 1 } });
    ctx.clock.advance(DEFAULT_LIMITS.unconfirmedAfterMs + 1);
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 1, settled: { refunded: 1 } });
    expect(ctx.provider.canceled).toEqual([ctx.provider.only().id]);
    expect(await statusOf(ctx, job.id)).toMatchObject({ status: 'failed', error: Messages.jobRefunded(Messages.generationNotConfirmed, 1) });
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 0, settled: {} });
    expect(ctx.credits.rowsOf(CALLER.sub).map((l) => l.reason)).toEqual(['purchase', 'image', 'refund']);
    expectBooksBalanced(ctx.credits);
  });

  it('keeps a prediction the lost call made that already succeeded: its output is recorded for the save', async () => {
    const ctx = generationSetup({ credits: 3 });
    const job = await orphaned(ctx, true);
    ctx.provider.update(ctx.provider.only().id, { status: 'succeeded', output: ['https://replicate.delivery/late.png'] });
    ctx.clock.advance(DEFAULT_LIMITS.unconfirmedAfterMs + 1);
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 1, settled: { recorded: 1 } });
    expect(await statusOf(ctx, job.id)).toMatchObject({ status: 'processing', outputUrl: 'https://replicate.delivery/late.png' });
    expect(await ctx.credits.balance(CALLER.sub)).toBe(2);
  });

  it('refunds a job whose prediction the provider no longer knows, and one past its model’s time (stopping it)', async () => {
    const ctx = generationSetup({ credits: 3 });
    const lost = await started(ctx, 'lost one');
    const slow = await started(ctx, 'slow one');
    ctx.provider.predictions.delete(lost.predictionId);
    ctx.provider.update(slow.predictionId, { status: 'processing' });
    // The provider is asked once a job is older than its model's typical run time.
    ctx.clock.advance(typicalMsOf(SDXL));
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 2, settled: { refunded: 1, progress: 1 } });
    expect(await statusOf(ctx, lost.jobId)).toMatchObject({ status: 'failed', error: Messages.jobRefunded(Messages.generationLost, 1) });
    ctx.clock.advance(maxRunMsOf(SDXL) - typicalMsOf(SDXL) + DEFAULT_LIMITS.graceMs + 1);
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 1, settled: { refunded: 1 } });
    expect(ctx.provider.canceled).toEqual([slow.predictionId]);
    expect(await statusOf(ctx, slow.jobId)).toMatchObject({ status: 'failed', error: Messages.jobRefunded(Messages.generationTookTooLong, 1) });
    expect(await ctx.credits.balance(CALLER.sub)).toBe(3);
    expectBooksBalanced(ctx.credits);
  });

  it('saves an output whose save is overdue (the stream’s copy kept failing)', async () => {
    const ctx = generationSetup({ credits: 3 });
    const { jobId, predictionId } = await started(ctx);
    ctx.store.outputs.set('https://replicate.delivery/out.png', await png(16, 16));
    await ctx.jobs.recordOutput(jobId, predictionId, ['https://replicate.delivery/out.png'], ctx.clock.now().getTime());
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 1, settled: { waiting: 1 } });
    ctx.clock.advance(DEFAULT_LIMITS.saveAfterMs + 1);
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 1, settled: { saved: 1 } });
    const job = await statusOf(ctx, jobId);
    expect(job).toMatchObject({ status: 'succeeded', mediaKey: expect.stringMatching(/^users\/user-0001\/images\/.*\.png$/) });
    expect(ctx.store.objects.has(job.mediaKey!)).toBe(true);
    expect(await ctx.media.get(CALLER.sub, job.mediaId!)).toMatchObject({ width: 16, height: 16, jobId });
    expect(ctx.credits.activeJobs(CALLER.sub)).toBe(0);
  });

  it('reports a job it could not settle while the provider is down, and settles it on a later run', async () => {
    const ctx = generationSetup({ credits: 3 });
    const { jobId, predictionId } = await started(ctx);
    ctx.provider.update(predictionId, { status: 'failed' });
    ctx.provider.down = true;
    ctx.clock.advance(typicalMsOf(SDXL));
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 1, settled: { error: 1 } });
    expect(ctx.logs).toEqual([expect.objectContaining({ message: 'reconcile: job not settled' })]);
    expect(await statusOf(ctx, jobId)).toMatchObject({ status: 'starting' });
    ctx.provider.down = false;
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 1, settled: { refunded: 1 } });
    expect(await ctx.credits.balance(CALLER.sub)).toBe(3);
  });
});
