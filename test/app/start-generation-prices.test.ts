/**
 * The price the web shows (its button, from the registry) is the charge, for every model and option combination, and a
 * combination the model cannot make is refused with the registry's reason before anything is charged. The use case
 * decides both; test/api/generation-options.test.ts proves each model's route charges as here through the stack.
 * In-memory ports (test/support/fakes/generation.ts).
 */
import { everyCombination, MODELS, priceOf, type ModelDef, type OptionValue } from '../../contract/models';
import type { GenerateImageRequest } from '../../contract/schemas';
import { startGeneration } from '../../lambdas/app/start-generation';
import { InvalidInput } from '../../lambdas/domain/errors';
import { generateLabel } from '../../web/src/features/marketing/price-text';
import { caught } from '../support/caught';
import { CALLER, generationSetup, png, startImageGeneration } from '../support/fakes/generation';

/** The number in the button's "(N Credits)". */
const shownCost = (label: string) => Number(/\((\d+) Credits?\)/.exec(label)?.[1]);

const RESULT_ID = 'result-1';
const UPLOAD = `users/${CALLER.sub}/images/1767322800000.png`;

/** A caller with credits, an uploaded start frame and an image result of their own. */
async function caller() {
  const ctx = generationSetup({ credits: 100_000 });
  const picture = await png(640, 360);
  await ctx.store.put(UPLOAD, picture, 'image/png');
  const key = `users/${CALLER.sub}/images/result.png`;
  await ctx.store.put(key, picture, 'image/png');
  ctx.media.add({ id: RESULT_ID, type: 'image', owner: CALLER.sub, key, prompt: 'a source picture', model: 'black-forest-labs/flux-schnell', options: {}, createdAt: '2026-01-01T00:00:00.000Z' });
  return ctx;
}

/** The request each route makes of the use case: SDXL through the spec's generate-image, the rest through generations. */
function start(ctx: Awaited<ReturnType<typeof caller>>, model: ModelDef, options: Record<string, OptionValue>) {
  if (model.slug === 'sdxl') return startImageGeneration(ctx.deps, CALLER, { prompt: 'price check', ...options } as GenerateImageRequest);
  const inputs = Object.fromEntries(
    Object.entries(model.inputs.images)
      .filter(([, d]) => d.required)
      .map(([id, d]) => [id, d.from === 'result' ? RESULT_ID : UPLOAD]),
  );
  return startGeneration(ctx.deps, CALLER, { model: model.slug, ...(model.inputs.prompt ? { prompt: 'price check' } : {}), options, inputs });
}

describe('startGeneration: the price shown is the price charged', () => {
  // Variations cost what their source costs (generations.test.ts holds that); every other entry has its own price.
  const cases = MODELS.filter((m) => !m.upcoming && !m.rerun).flatMap((model) => everyCombination(model).map((combo) => ({ model, combo, price: priceOf(model, combo) })));

  it('covers every model and more than a hundred orderable combinations', () => {
    expect(new Set(cases.map((c) => c.model.slug)).size).toBe(MODELS.filter((m) => !m.upcoming && !m.rerun).length);
    expect(cases.filter((c) => c.price.ok).length).toBeGreaterThan(100);
  });

  it('charges each orderable combination exactly the label price, once, and refuses the others with the reason, charging nothing', async () => {
    const mismatches: string[] = [];
    for (const { model, combo, price } of cases) {
      const ctx = await caller();
      const what = `${model.slug} ${JSON.stringify(combo)}`;
      if (!price.ok) {
        const err = await caught(start(ctx, model, combo));
        if (!(err instanceof InvalidInput) || err.message !== price.reason) mismatches.push(`${what}: ${err.constructor.name} ${err.message}`);
        if (ctx.credits.rowsOf(CALLER.sub).length !== 1) mismatches.push(`${what}: charged though refused`);
        continue;
      }
      const cost = shownCost(generateLabel(model.kind, price.cost, Number(combo.count ?? 1)));
      const started = await start(ctx, model, combo);
      const job = await ctx.jobs.get(started.predictionId);
      const charges = ctx.credits.rowsOf(CALLER.sub).slice(1).map((l) => l.delta);
      if (job?.cost !== cost || started.credits !== 100_000 - cost || charges.join() !== String(-cost)) {
        mismatches.push(`${what}: shown ${cost}, charged ${job?.cost} (${charges.join()})`);
      }
    }
    expect(mismatches).toEqual([]);
  });
});
