/**
 * The prompt policy in the start of every generation: a forbidden prompt or negative prompt is refused with the
 * policy's message before the charge (the ledger unchanged, no job, nothing asked of the provider), and the refusal is
 * counted once; an allowed prompt starts as before, counting nothing.
 */
import { PIXVERSE } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { BusinessMetric } from '../../contract/metrics';
import { InvalidInput } from '../../lambdas/domain/errors';
import { caught } from '../support/caught';
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
});
