/**
 * Starting a video: the registry prices the request (the charge is the price shown), checks what the model can take
 * (Wan's two models and their start image, Pixverse's options) before anything is charged, and the same refunds as
 * any job when the provider refuses or cannot be reached. A result of the caller's own can be the start image.
 */
import { PIXVERSE, WAN_I2V, WAN_T2V } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { modelOfReplicate } from '../../contract/models';
import { startVideoGeneration } from '../support/fakes/generation';
import { InvalidInput, NotFound, ProviderError } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
import { expectBooksBalanced } from '../support/fakes/credits';
import { CALLER, generationSetup, png, type GenerationContext } from '../support/fakes/generation';

const ledgerOf = (ctx: GenerationContext) => ctx.credits.rowsOf(CALLER.sub).map((l) => [l.reason, l.delta]);
const priceOf = (model: string, options: Record<string, string | number>) => modelOfReplicate(model)!.price({ ...defaults(model), ...options });
const defaults = (model: string) => Object.fromEntries(Object.entries(modelOfReplicate(model)!.options).flatMap(([k, o]) => ('default' in o ? [[k, o.default]] : [])));

describe('startVideoGeneration', () => {
  it.each([
    [PIXVERSE, { duration: 5, quality: '540p' }],
    [PIXVERSE, { duration: 8, quality: '720p' }],
    [WAN_T2V, { duration: 5 }],
  ] as const)('charges %s %p exactly its registry price, once, and asks that model', async (model, options) => {
    const ctx = generationSetup({ credits: 100 });
    const price = priceOf(model, options);
    const started = await startVideoGeneration(ctx.deps, CALLER, { prompt: 'waves at night', model, ...options });
    expect(started.credits).toBe(100 - price);
    expect(ledgerOf(ctx)).toEqual([['purchase', 100], ['video', -price]]);
    expect(ctx.provider.only().request.model).toBe(model);
    expect(await ctx.jobs.get(started.predictionId)).toMatchObject({ kind: 'video', cost: price, model });
  });

  it.each([
    ['an unknown model', { model: 'someone/else', duration: 5 }, 'Unknown model: someone/else.'],
    ['Wan image-to-video without a start image', { model: WAN_I2V, duration: 5 }, 'wavespeedai/wan-2.1-i2v-480p needs a start image: without one, Wan 2.1 (480p) runs wavespeedai/wan-2.1-t2v-480p.'],
    ['Wan text-to-video with one', { model: WAN_T2V, duration: 5, image: `users/${CALLER.sub}/images/1.png` }, 'wavespeedai/wan-2.1-t2v-480p takes no start image: with one, Wan 2.1 (480p) runs wavespeedai/wan-2.1-i2v-480p.'],
    ['two start images', { model: PIXVERSE, duration: 5, image: `users/${CALLER.sub}/images/1.png`, startMediaId: 'm1' }, Messages.startImageTwice],
    ['a duration the model does not offer', { model: PIXVERSE, duration: 7 }, undefined],
  ])('refuses %s with a 400, before the account, the charge or the provider', async (_what, request, message) => {
    const ctx = generationSetup();
    const err = await caught(startVideoGeneration(ctx.deps, CALLER, { prompt: 'a fox', ...request }));
    expect(err).toBeInstanceOf(InvalidInput);
    if (message) expect(err.message).toBe(message);
    expect(ctx.credits.accounts.size).toBe(0);
    expect(ctx.provider.predictions.size).toBe(0);
  });

  it("animates one of the caller's image results (no upload), and refuses a video or another user's item", async () => {
    const ctx = generationSetup({ credits: 100 });
    const key = `users/${CALLER.sub}/images/result.png`;
    await ctx.store.put(key, await png(1024, 576), 'image/png');
    const item = { owner: CALLER.sub, key, prompt: 'p', model: 'stability-ai/sdxl', options: {}, createdAt: '2026-01-01T00:00:00.000Z' };
    ctx.media.add({ ...item, id: 'img-1', type: 'image' });
    ctx.media.add({ ...item, id: 'vid-1', type: 'video', owner: CALLER.sub });
    ctx.media.add({ ...item, id: 'theirs', type: 'image', owner: 'someone-else' });
    await startVideoGeneration(ctx.deps, CALLER, { prompt: 'move', model: WAN_I2V, duration: 5, startMediaId: 'img-1' });
    expect(ctx.provider.only().request.input.image).toContain(key);
    const video = await caught(startVideoGeneration(ctx.deps, CALLER, { prompt: 'move', model: WAN_I2V, duration: 5, startMediaId: 'vid-1' }));
    expect([video.constructor, video.message]).toEqual([InvalidInput, Messages.startMediaNotImage]);
    const theirs = await caught(startVideoGeneration(ctx.deps, CALLER, { prompt: 'move', model: WAN_I2V, duration: 5, startMediaId: 'theirs' }));
    expect([theirs.constructor, theirs.message]).toEqual([NotFound, Messages.mediaNotFound]);
    expect(ledgerOf(ctx)).toHaveLength(2);
  });

  it('refunds the whole price once when the provider cannot be reached', async () => {
    const ctx = generationSetup({ credits: 100 });
    ctx.provider.next = 'down';
    const price = priceOf(PIXVERSE, { duration: 8 });
    const err = await caught(startVideoGeneration(ctx.deps, CALLER, { prompt: 'rain', model: PIXVERSE, duration: 8 }));
    expect(err).toBeInstanceOf(ProviderError);
    expect(err.message).toBe(Messages.jobRefunded(Messages.generationUnavailable, price));
    expect(ledgerOf(ctx)).toEqual([['purchase', 100], ['video', -price], ['refund', price]]);
    expectBooksBalanced(ctx.credits);
  });
});
