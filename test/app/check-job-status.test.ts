/**
 * A job's status for its owner: the balance read with it, the provider asked only when a webhook seems late (one
 * caller per interval), the result's short-lived URL at success, 404 for anyone else's job.
 */
import { MEDIA_URL_SECONDS } from '../../contract/media-links';
import { checkJobStatus } from '../../lambdas/app/check-job-status';
import { startImageGeneration } from '../support/fakes/generation';
import { NotFound } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { CALLER, generationSetup } from '../support/fakes/generation';

describe('checkJobStatus', () => {
  it('answers starting with the balance, and asks the provider only once a webhook is late', async () => {
    const ctx = generationSetup({ credits: 3 });
    const { predictionId: jobId } = await startImageGeneration(ctx.deps, CALLER, { prompt: 'a kite' });
    const get = jest.spyOn(ctx.provider, 'get');
    expect(await checkJobStatus(ctx.deps, CALLER.sub, jobId)).toEqual({ status: 'starting', value: 2 });
    expect(await checkJobStatus(ctx.deps, CALLER.sub, jobId)).toEqual({ status: 'starting', value: 2 });
    expect(get).toHaveBeenCalledTimes(1);
    ctx.provider.update(ctx.provider.only().id, { status: 'failed' });
    ctx.clock.advance(1_000);
    expect((await checkJobStatus(ctx.deps, CALLER.sub, jobId)).status).toBe('starting');
    ctx.clock.advance(4_000);
    expect(await checkJobStatus(ctx.deps, CALLER.sub, jobId)).toMatchObject({ status: 'failed', value: 3, error: expect.stringContaining('1 credit refunded') });
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('gives the result a short-lived URL once the job succeeded', async () => {
    const ctx = generationSetup({ credits: 3 });
    const { predictionId: jobId } = await startImageGeneration(ctx.deps, CALLER, { prompt: 'a kite' });
    const job = (await ctx.jobs.get(jobId))!;
    const item = { id: 'm1', owner: CALLER.sub, type: 'image' as const, key: `users/${CALLER.sub}/images/kite.png`, prompt: 'a kite', model: job.model, options: {}, createdAt: job.createdAt, jobId };
    await ctx.jobs.succeed(job, [item]);
    expect(await checkJobStatus(ctx.deps, CALLER.sub, jobId)).toEqual({ status: 'succeeded', value: 2, mediaId: 'm1', imageUrl: `memory://bucket/${item.key}?expires=${MEDIA_URL_SECONDS}` });
  });

  it("answers 404 for another user's job and an unknown one, asking nobody", async () => {
    const ctx = generationSetup({ credits: 3 });
    const { predictionId: jobId } = await startImageGeneration(ctx.deps, CALLER, { prompt: 'a kite' });
    const get = jest.spyOn(ctx.provider, 'get');
    expect(await caught(checkJobStatus(ctx.deps, 'someone-else', jobId))).toBeInstanceOf(NotFound);
    expect(await caught(checkJobStatus(ctx.deps, CALLER.sub, 'no-such-job'))).toBeInstanceOf(NotFound);
    expect(get).not.toHaveBeenCalled();
  });

  it('still answers from what is stored while the provider is down', async () => {
    const ctx = generationSetup({ credits: 3 });
    const { predictionId: jobId } = await startImageGeneration(ctx.deps, CALLER, { prompt: 'a kite' });
    ctx.provider.down = true;
    expect(await checkJobStatus(ctx.deps, CALLER.sub, jobId)).toEqual({ status: 'starting', value: 2 });
  });
});
