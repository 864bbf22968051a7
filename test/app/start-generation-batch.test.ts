/**
 * A batch of images (SDXL or FLUX Fast, count 2-4) is one job and one charge but one prediction per image, each with
 * its own seed (s, s+1, ...): the models seed one generator per prediction, so only then does a shown seed make its
 * image again. The job's outputs are recorded once every part has ended; a part that fails leaves the others to finish:
 * the job delivers the images that succeeded and refunds the failed parts' price with its success, once (every part
 * failed: the whole refund). A create refused at the start refunds all; the reconciler and cancel know every part.
 */
import { typicalMsOf } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { SEED_MAX } from '../../contract/models';
import { applyGenerationWebhook } from '../../lambdas/app/apply-generation-webhook';
import { cancelJob } from '../../lambdas/app/cancel-job';
import { checkJobStatus } from '../../lambdas/app/check-job-status';
import { reconcileJobs } from '../../lambdas/app/reconcile-jobs';
import { saveJobOutput } from '../../lambdas/app/save-job-output';
import { startGeneration } from '../../lambdas/app/start-generation';
import { InvalidInput } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { expectBooksBalanced } from '../support/fakes/credits';
import { CALLER, generationSetup, png, startImageGeneration, WEBHOOK_URL, type GenerationContext } from '../support/fakes/generation';
import { generationDelivery } from '../support/fakes/model-provider';

const ledgerOf = (ctx: GenerationContext) => ctx.credits.rowsOf(CALLER.sub).map((l) => [l.reason, l.delta]);
const predictions = (ctx: GenerationContext) => [...ctx.provider.predictions.values()];

async function batchOf(ctx: GenerationContext, count: number, seed = 41) {
  const { predictionId: jobId } = await startImageGeneration(ctx.deps, CALLER, { prompt: 'four lighthouses', count, seed });
  return jobId;
}

const succeed = (ctx: GenerationContext, id: string) => ctx.provider.update(id, { status: 'succeeded', output: [`https://replicate.delivery/${id}.png`] });

describe('a batch of images', () => {
  it('charges once and asks one prediction per image, each with one output and its own seed (wrapping past the largest)', async () => {
    const ctx = generationSetup({ credits: 6 });
    const jobId = await batchOf(ctx, 4, SEED_MAX - 1);
    expect(ledgerOf(ctx)).toEqual([['purchase', 6], ['image', -4]]);
    const made = predictions(ctx);
    expect(made.map((p) => [p.request.input.seed, p.request.input.num_outputs])).toEqual([[SEED_MAX - 1, 1], [SEED_MAX, 1], [0, 1], [1, 1]]);
    expect(made.map((p) => p.request.webhookUrl)).toEqual([0, 1, 2, 3].map((part) => `${WEBHOOK_URL}?job=${jobId}&part=${part}`));
    const job = (await ctx.jobs.get(jobId))!;
    expect(job.batch).toEqual(made.map((p) => ({ seed: p.request.input.seed, providerId: p.id })));
    expect(job.providerId).toBeUndefined();
    expect(ctx.credits.activeJobs(CALLER.sub)).toBe(1);
  });

  it('creates a FLUX Fast batch side by side, each with Prefer: wait', async () => {
    const ctx = generationSetup({ credits: 6 });
    await startGeneration(ctx.deps, CALLER, { model: 'flux-fast', prompt: 'two foxes', options: { count: 2, seed: 9 } });
    expect(predictions(ctx).map((p) => [p.request.input.seed, p.request.input.num_outputs, p.request.waitSeconds])).toEqual([[9, 1, 5], [10, 1, 5]]);
  });

  it('runs FLUX Fast with go_fast off when the caller chose the seed, so it gives the same pictures again; a drawn seed keeps the fast path', async () => {
    const ctx = generationSetup({ credits: 6 });
    await startGeneration(ctx.deps, CALLER, { model: 'flux-fast', prompt: 'two foxes', options: { count: 2, seed: 9 } });
    expect(predictions(ctx).map((p) => p.request.input.go_fast)).toEqual([false, false]);
    const drawn = generationSetup({ credits: 6 });
    await startGeneration(drawn.deps, CALLER, { model: 'flux-fast', prompt: 'two foxes' });
    expect(predictions(drawn).map((p) => 'go_fast' in p.request.input)).toEqual([false]);
  });

  it('records the outputs in part order once the last part is in, and saves each image with its own seed', async () => {
    const ctx = generationSetup({ credits: 6 });
    const jobId = await batchOf(ctx, 3);
    const [a, b, c] = predictions(ctx).map((p) => p.id);
    for (const id of [a!, b!, c!]) ctx.store.outputs.set(`https://replicate.delivery/${id}.png`, await png(16, 16));
    await applyGenerationWebhook(ctx.deps, generationDelivery('m-c', jobId, succeed(ctx, c!), true, 2));
    await applyGenerationWebhook(ctx.deps, generationDelivery('m-a', jobId, succeed(ctx, a!), true, 0));
    expect((await ctx.jobs.get(jobId))!.outputUrl).toBeUndefined();
    await applyGenerationWebhook(ctx.deps, generationDelivery('m-b', jobId, succeed(ctx, b!), true, 1));
    expect((await ctx.jobs.get(jobId))!.outputUrls).toEqual([a, b, c].map((id) => `https://replicate.delivery/${id}.png`));
    expect(await saveJobOutput(ctx.deps, jobId)).toBe('saved');
    const items = (await ctx.media.list(CALLER.sub, 10)).items;
    expect(items.map((m) => m.options.seed).sort()).toEqual([41, 42, 43]);
    expect(ledgerOf(ctx)).toEqual([['purchase', 6], ['image', -3]]);
    expect(ctx.credits.activeJobs(CALLER.sub)).toBe(0);
  });

  it('delivers the three images that succeeded when one of four fails, and refunds the failed one only, once', async () => {
    const ctx = generationSetup({ credits: 6 });
    const jobId = await batchOf(ctx, 4);
    const [a, b, c, d] = predictions(ctx).map((p) => p.id);
    for (const id of [a!, b!, d!]) ctx.store.outputs.set(`https://replicate.delivery/${id}.png`, await png(16, 16));
    await applyGenerationWebhook(ctx.deps, generationDelivery('m-a', jobId, succeed(ctx, a!), true, 0));
    const failed = ctx.provider.update(c!, { status: 'failed', error: 'NSFW content detected' });
    await applyGenerationWebhook(ctx.deps, generationDelivery('m-c', jobId, failed, true, 2));
    // The failure ends nothing yet, stops nothing: the other parts are still being made (and billed).
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'starting' });
    expect(ctx.provider.canceled).toEqual([]);
    await applyGenerationWebhook(ctx.deps, generationDelivery('m-c2', jobId, failed, true, 2));
    await applyGenerationWebhook(ctx.deps, generationDelivery('m-b', jobId, succeed(ctx, b!), true, 1));
    expect((await ctx.jobs.get(jobId))!.outputUrl).toBeUndefined();
    await applyGenerationWebhook(ctx.deps, generationDelivery('m-d', jobId, succeed(ctx, d!), true, 3));
    expect((await ctx.jobs.get(jobId))!.outputUrls).toEqual([a, b, d].map((id) => `https://replicate.delivery/${id}.png`));

    expect(await saveJobOutput(ctx.deps, jobId)).toBe('saved');
    expect(await saveJobOutput(ctx.deps, jobId)).toBe('skipped');
    const note = Messages.batchPartlyFailed(1, 4, 1);
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'succeeded', error: note });
    expect((await checkJobStatus(ctx.deps, CALLER.sub, jobId))).toMatchObject({ status: 'succeeded', error: note, imageUrl: expect.any(String) });
    const items = (await ctx.media.list(CALLER.sub, 10)).items;
    expect(items.map((m) => m.options.seed).sort()).toEqual([41, 42, 44]);
    // One charge row, one refund row for the missing image.
    expect(ledgerOf(ctx)).toEqual([['purchase', 6], ['image', -4], ['refund', 1]]);
    expect(await ctx.credits.balance(CALLER.sub)).toBe(3);
    expect(ctx.credits.activeJobs(CALLER.sub)).toBe(0);
    expectBooksBalanced(ctx.credits);
  });

  it('refunds two of four when two fail, in whatever order the parts end', async () => {
    const ctx = generationSetup({ credits: 6 });
    const jobId = await batchOf(ctx, 4);
    const [a, b, c, d] = predictions(ctx).map((p) => p.id);
    for (const id of [b!, c!]) ctx.store.outputs.set(`https://replicate.delivery/${id}.png`, await png(16, 16));
    await applyGenerationWebhook(ctx.deps, generationDelivery('m-b', jobId, succeed(ctx, b!), true, 1));
    await applyGenerationWebhook(ctx.deps, generationDelivery('m-a', jobId, ctx.provider.update(a!, { status: 'failed', error: 'boom' }), true, 0));
    await applyGenerationWebhook(ctx.deps, generationDelivery('m-c', jobId, succeed(ctx, c!), true, 2));
    await applyGenerationWebhook(ctx.deps, generationDelivery('m-d', jobId, ctx.provider.update(d!, { status: 'aborted' }), true, 3));
    expect(await saveJobOutput(ctx.deps, jobId)).toBe('saved');
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'succeeded', error: Messages.batchPartlyFailed(2, 4, 2) });
    expect(ledgerOf(ctx)).toEqual([['purchase', 6], ['image', -4], ['refund', 2]]);
    expectBooksBalanced(ctx.credits);
  });

  it('refunds the whole job once when every part fails', async () => {
    const ctx = generationSetup({ credits: 6 });
    const jobId = await batchOf(ctx, 2);
    const [a, b] = predictions(ctx).map((p) => p.id);
    await applyGenerationWebhook(ctx.deps, generationDelivery('m-a', jobId, ctx.provider.update(a!, { status: 'failed', error: 'NSFW content detected' }), true, 0));
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'starting' });
    await applyGenerationWebhook(ctx.deps, generationDelivery('m-b', jobId, ctx.provider.update(b!, { status: 'failed', error: 'NSFW content detected' }), true, 1));
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'failed', refunded: true, error: expect.stringContaining('2 credits refunded') });
    expect(ledgerOf(ctx)).toEqual([['purchase', 6], ['image', -2], ['refund', 2]]);
    expect(ctx.credits.activeJobs(CALLER.sub)).toBe(0);
    expectBooksBalanced(ctx.credits);
  });

  it('refuses the start when one create is refused: the others are cancelled and the whole charge comes back', async () => {
    const ctx = generationSetup({ credits: 6 });
    ctx.provider.turns = ['accept', 'accept', 'refuse', 'accept'];
    const err = await caught(batchOf(ctx, 4));
    expect(err).toBeInstanceOf(InvalidInput);
    expect(ctx.provider.canceled.sort()).toEqual(predictions(ctx).map((p) => p.id).sort());
    expect(ledgerOf(ctx)).toEqual([['purchase', 6], ['image', -4], ['refund', 4]]);
    expectBooksBalanced(ctx.credits);
  });

  it('queues a batch the provider is too busy for, and submits every part from the queue', async () => {
    const ctx = generationSetup({ credits: 6 });
    ctx.provider.next = 'busy';
    const jobId = await batchOf(ctx, 2);
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'pending', queued: expect.any(Object) });
    ctx.provider.next = 'accept';
    expect(await reconcileJobs(ctx.deps)).toMatchObject({ settled: { submitted: 1 } });
    expect(predictions(ctx).map((p) => p.request.input.seed)).toEqual([41, 42]);
    expect((await ctx.jobs.get(jobId))!.batch!.map((b) => b.providerId)).toEqual(predictions(ctx).map((p) => p.id));
  });

  it('is settled by the reconciler part by part when the webhooks are lost', async () => {
    const ctx = generationSetup({ credits: 6 });
    const jobId = await batchOf(ctx, 2);
    for (const p of predictions(ctx)) succeed(ctx, p.id);
    ctx.clock.advance(typicalMsOf('stability-ai/sdxl') + 1_000);
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 1, settled: { recorded: 1 } });
    expect((await ctx.jobs.get(jobId))!.outputUrls).toHaveLength(2);
  });

  it('is settled by a status check that asks about every part when the webhooks are late', async () => {
    const ctx = generationSetup({ credits: 6 });
    const jobId = await batchOf(ctx, 2);
    for (const p of predictions(ctx)) succeed(ctx, p.id);
    ctx.clock.advance(5_000);
    expect((await checkJobStatus(ctx.deps, CALLER.sub, jobId)).status).toBe('processing');
    expect((await ctx.jobs.get(jobId))!.outputUrls).toEqual(predictions(ctx).map((p) => `https://replicate.delivery/${p.id}.png`));
  });

  it('records the outputs of a batch whose last recorder stopped between its part and the job', async () => {
    const ctx = generationSetup({ credits: 6 });
    const jobId = await batchOf(ctx, 2);
    for (const [part, p] of predictions(ctx).entries()) await ctx.jobs.recordPartOutput(jobId, part, p.id, `https://replicate.delivery/${p.id}.png`);
    expect((await ctx.jobs.get(jobId))!.outputUrl).toBeUndefined();
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 1, settled: { recorded: 1 } });
    expect((await ctx.jobs.get(jobId))!.outputUrls).toEqual(predictions(ctx).map((p) => `https://replicate.delivery/${p.id}.png`));
  });

  it('refunds in full, once, a batch whose every part failed but whose last recorder stopped before the job ended (money simulation on the stack, seed 1)', async () => {
    const ctx = generationSetup({ credits: 6 });
    const jobId = await batchOf(ctx, 2);
    for (const [part, p] of predictions(ctx).entries()) await ctx.jobs.recordPartFailure(jobId, part, p.id, Messages.imageGenerationFailed);
    expect((await ctx.jobs.get(jobId))!.status).toBe('starting');
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 1, settled: { refunded: 1 } });
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'failed', refunded: true, error: Messages.jobRefunded(Messages.imageGenerationFailed, 2) });
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 0, settled: {} });
    expect(ledgerOf(ctx)).toEqual([['purchase', 6], ['image', -2], ['refund', 2]]);
    expectBooksBalanced(ctx.credits);
  });

  it('delivers the image that succeeded of a batch whose last part failed just before its recorder stopped', async () => {
    const ctx = generationSetup({ credits: 6 });
    const jobId = await batchOf(ctx, 2);
    const [a, b] = predictions(ctx);
    ctx.store.outputs.set(`https://replicate.delivery/${a!.id}.png`, await png(16, 16));
    succeed(ctx, a!.id);
    await ctx.jobs.recordPartOutput(jobId, 0, a!.id, `https://replicate.delivery/${a!.id}.png`);
    await ctx.jobs.recordPartFailure(jobId, 1, b!.id, Messages.imageGenerationFailed);
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 1, settled: { recorded: 1 } });
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'processing', outputUrl: `https://replicate.delivery/${a!.id}.png` });
    // The stream saves it and refunds the failed part's credit with the success.
    expect(await saveJobOutput(ctx.deps, jobId)).toBe('saved');
    expect((await ctx.jobs.get(jobId))!.status).toBe('succeeded');
    expect(ledgerOf(ctx)).toEqual([['purchase', 6], ['image', -2], ['refund', 1]]);
    expectBooksBalanced(ctx.credits);
  });

  it('refunds in full when the provider lost one part, cancelling the other', async () => {
    const ctx = generationSetup({ credits: 6 });
    const jobId = await batchOf(ctx, 2);
    const [a, b] = predictions(ctx).map((p) => p.id);
    ctx.provider.predictions.delete(b!);
    ctx.clock.advance(typicalMsOf('stability-ai/sdxl') + 1_000);
    expect(await reconcileJobs(ctx.deps)).toEqual({ open: 1, settled: { refunded: 1 } });
    expect(await ctx.jobs.get(jobId)).toMatchObject({ status: 'failed', error: Messages.jobRefunded(Messages.generationLost, 2) });
    expect(ctx.provider.canceled).toEqual([a]);
    expectBooksBalanced(ctx.credits);
  });

  it('cancels every part: in full before any runs, and only with consent once one does', async () => {
    const ctx = generationSetup({ credits: 6 });
    const jobId = await batchOf(ctx, 2);
    const [a, b] = predictions(ctx).map((p) => p.id);
    ctx.provider.update(b!, { status: 'processing' });
    expect((await caught(cancelJob(ctx.deps, CALLER.sub, jobId))).message).toBe(Messages.cancelSpendsCredits(2));
    expect(await cancelJob(ctx.deps, CALLER.sub, jobId, true)).toMatchObject({ status: 'canceled', refunded: 0 });
    expect(ctx.provider.canceled).toEqual([a, b]);
    expect(ledgerOf(ctx)).toEqual([['purchase', 6], ['image', -2]]);
  });
});
