/**
 * Cancelling a running job: a full refund while the provider has not begun it, none once it runs (and only when the
 * caller agreed), settled once when the cancel races the provider's own end; the provider's prediction stopped too.
 */
import { Messages } from '../../contract/errors';
import { cancelJob } from '../../lambdas/app/cancel-job';
import { startImageGeneration } from '../support/fakes/generation';
import { Conflict, NotFound } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { expectBooksBalanced } from '../support/fakes/credits';
import { CALLER, generationSetup, type GenerationContext } from '../support/fakes/generation';

async function started(ctx: GenerationContext) {
  const { predictionId: jobId } = await startImageGeneration(ctx.deps, CALLER, { prompt: 'a tower' });
  return { jobId, predictionId: ctx.provider.only().id };
}

const ledgerOf = (ctx: GenerationContext) => ctx.credits.rowsOf(CALLER.sub).map((l) => [l.reason, l.delta]);

describe('cancelJob', () => {
  it('refunds in full while the provider has not begun, stops the prediction (each of a batch), and answers a repeat the same way', async () => {
    const ctx = generationSetup({ credits: 5 });
    const { predictionId: jobId } = await startImageGeneration(ctx.deps, CALLER, { prompt: 'a tower', count: 2 });
    const answer = { status: 'canceled', refunded: 2, credits: 5, error: Messages.jobRefunded(Messages.generationCanceled, 2) };
    expect(await cancelJob(ctx.deps, CALLER.sub, jobId)).toEqual(answer);
    expect(await cancelJob(ctx.deps, CALLER.sub, jobId)).toEqual(answer);
    expect(ctx.provider.canceled).toEqual(['pred-1', 'pred-2']);
    expect(ledgerOf(ctx)).toEqual([['purchase', 5], ['image', -2], ['refund', 2]]);
    expect(ctx.credits.activeJobs(CALLER.sub)).toBe(0);
    expectBooksBalanced(ctx.credits);
  });

  it('asks before cancelling a job the provider runs (it bills it), then cancels it without a refund', async () => {
    const ctx = generationSetup({ credits: 5 });
    const { jobId, predictionId } = await started(ctx);
    ctx.provider.update(predictionId, { status: 'processing' });
    const ask = await caught(cancelJob(ctx.deps, CALLER.sub, jobId));
    expect(ask).toBeInstanceOf(Conflict);
    expect(ask.message).toBe(Messages.cancelSpendsCredits(1));
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'starting' });
    expect(await cancelJob(ctx.deps, CALLER.sub, jobId, true)).toEqual({ status: 'canceled', refunded: 0, credits: 4, error: Messages.canceledNoRefund(1) });
    expect(ledgerOf(ctx)).toEqual([['purchase', 5], ['image', -1]]);
    expect(ctx.credits.activeJobs(CALLER.sub)).toBe(0);
  });

  it('settles a job that already failed at the provider as the webhook would (refunded once), and says so', async () => {
    const ctx = generationSetup({ credits: 5 });
    const { jobId, predictionId } = await started(ctx);
    ctx.provider.update(predictionId, { status: 'failed' });
    const err = await caught(cancelJob(ctx.deps, CALLER.sub, jobId));
    expect(err).toBeInstanceOf(Conflict);
    expect(err.message).toBe(Messages.jobRefunded(Messages.imageGenerationFailed, 1));
    expect(ledgerOf(ctx)).toEqual([['purchase', 5], ['image', -1], ['refund', 1]]);
  });

  it('loses to an output already recorded: the job finished and is being saved (409), nothing refunded', async () => {
    const ctx = generationSetup({ credits: 5 });
    const { jobId, predictionId } = await started(ctx);
    await ctx.jobs.recordOutput(jobId, predictionId, ['https://replicate.delivery/x.png'], Date.now());
    const err = await caught(cancelJob(ctx.deps, CALLER.sub, jobId, true));
    expect(err).toBeInstanceOf(Conflict);
    expect(err.message).toBe(Messages.jobAlreadyEnded);
    expect(ctx.provider.canceled).toEqual([]);
    expect(await ctx.credits.balance(CALLER.sub)).toBe(4);
  });

  it("answers 404 for another user's job, changing nothing", async () => {
    const ctx = generationSetup({ credits: 5 });
    const { jobId } = await started(ctx);
    const err = await caught(cancelJob(ctx.deps, 'someone-else', jobId));
    expect(err).toBeInstanceOf(NotFound);
    expect(err.message).toBe(Messages.jobNotFound);
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'starting' });
  });

  it('keeps our side settled when the provider cannot be told to stop', async () => {
    const ctx = generationSetup({ credits: 5 });
    const { jobId } = await started(ctx);
    const cancel = jest.spyOn(ctx.provider, 'cancel').mockRejectedValue(new Error('503'));
    expect(await cancelJob(ctx.deps, CALLER.sub, jobId)).toMatchObject({ status: 'canceled', refunded: 1, credits: 5 });
    expect(cancel).toHaveBeenCalled();
    expect(ctx.logs).toEqual([expect.objectContaining({ message: 'cancel-job: the provider did not cancel' })]);
  });
});
