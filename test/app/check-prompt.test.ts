/**
 * The prompt policy in the start of every generation: a forbidden prompt or negative prompt is refused with the
 * policy's message before the charge (the ledger unchanged, no job, nothing asked of the provider), and the refusal is
 * counted once; an allowed prompt starts as before, counting nothing. A prompt said of a picture the caller gives (an
 * edit of one of their results, an uploaded start image) may not undress or sexualise the person in it; an upscale,
 * which carries its source's prompt, is not read as such a request.
 */
import sharp from 'sharp';
import { PIXVERSE } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { BusinessMetric } from '../../contract/metrics';
import { InvalidInput } from '../../lambdas/domain/errors';
import { startGeneration } from '../../lambdas/app/start-generation';
import { caught } from '../support/caught';
import { mediaItem } from '../support/fakes/media';
import { CALLER, generationSetup, startImageGeneration, startVideoGeneration, type GenerationContext } from '../support/fakes/generation';

const ledgerOf = (ctx: GenerationContext) => ctx.credits.rowsOf(CALLER.sub).map((l) => [l.reason, l.delta]);

function expectRefusedBeforeCharge(ctx: GenerationContext, err: Error) {
  expect(err).toBeInstanceOf(InvalidInput);
  expect(err.message).toBe(Messages.promptNotAllowed);
  expect(ledgerOf(ctx)).toEqual([['purchase', 20]]);
  expect(ctx.jobs.jobs.size).toBe(0);
  expect(ctx.provider.predictions.size).toBe(0);
  expect(ctx.metrics.total(BusinessMetric.PromptRefused)).toBe(1);
}

describe('checkPrompt in the start of a generation', () => {
  it('refuses a forbidden image prompt before the charge and counts it', async () => {
    const ctx = generationSetup({ credits: 20 });
    expectRefusedBeforeCharge(ctx, await caught(startImageGeneration(ctx.deps, CALLER, { prompt: 'a nude child' })));
  });

  it('refuses a forbidden negative prompt before the charge', async () => {
    const ctx = generationSetup({ credits: 20 });
    expectRefusedBeforeCharge(ctx, await caught(startImageGeneration(ctx.deps, CALLER, { prompt: 'a portrait', negativePrompt: 'deepnude' })));
  });

  it('refuses a forbidden video prompt before the charge', async () => {
    const ctx = generationSetup({ credits: 20 });
    expectRefusedBeforeCharge(ctx, await caught(startVideoGeneration(ctx.deps, CALLER, { prompt: 'sexy teen dancing', model: PIXVERSE, duration: 5, quality: '540p' })));
  });

  it('starts an allowed prompt as before and counts no refusal', async () => {
    const ctx = generationSetup({ credits: 20 });
    await startImageGeneration(ctx.deps, CALLER, { prompt: 'children flying kites', negativePrompt: 'nude, nsfw' });
    expect(ledgerOf(ctx)).toEqual([['purchase', 20], ['image', -1]]);
    expect(ctx.provider.predictions.size).toBe(1);
    expect(ctx.metrics.total(BusinessMetric.PromptRefused)).toBe(0);
  });

  it('refuses an edit that undresses the person in the picture, before the charge', async () => {
    const ctx = generationSetup({ credits: 20 });
    ctx.media.add(mediaItem(CALLER.sub, 'src-1'));
    const err = await caught(startGeneration(ctx.deps, CALLER, { model: 'edit', prompt: 'make her topless', inputs: { image: 'src-1' } }));
    expectRefusedBeforeCharge(ctx, err);
    expect((err as InvalidInput).details).toEqual({ policy: 'non-consensual-imagery' });
  });

  it('refuses an uploaded start image with a prompt that undresses the person in it, before the charge', async () => {
    const ctx = generationSetup({ credits: 20 });
    const err = await caught(startImageGeneration(ctx.deps, CALLER, { prompt: 'the same woman, n\u200bude', image: `uploads/${CALLER.sub}/start/1.png` }));
    expectRefusedBeforeCharge(ctx, err);
  });

  it('upscales a result whose own prompt was an adult one: the prompt is the source\'s, not a request about the picture', async () => {
    const ctx = generationSetup({ credits: 20 });
    const source = mediaItem(CALLER.sub, 'src-1', { prompt: 'a sexy woman in lingerie, studio light' });
    ctx.media.add(source);
    await ctx.store.put(source.key, await sharp({ create: { width: 32, height: 16, channels: 3, background: '#08f' } }).png().toBuffer(), 'image/png');
    await startGeneration(ctx.deps, CALLER, { model: 'upscale', inputs: { image: source.id } });
    expect(ctx.provider.predictions.size).toBe(1);
    expect(ctx.metrics.total(BusinessMetric.PromptRefused)).toBe(0);
  });
});
