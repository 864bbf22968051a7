/**
 * The model registry (contract/models/) against what Replicate publishes: every input the registry can build, for
 * every option combination, with and without a start image, is accepted by the model's stored Input schema
 * (names, types, ranges, enums, and no field the schema lacks); and the registry refuses what a model cannot take.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import Ajv from 'ajv';
import addFormats from 'ajv-formats';
import { everyCombination, MODELS, priceOf, resolveOptions, SEED_MAX, type ImageInputDef, type ImageInputId, type ModelDef, type OptionValue } from '../../contract/models';

const SCHEMAS = join(__dirname, '../../contract/models/schemas');
const ajv = new Ajv({ allErrors: true, strict: false });
addFormats(ajv);

const validators = new Map<string, ReturnType<typeof ajv.compile>>();
function validatorOf(file: string) {
  const known = validators.get(file);
  if (known) return known;
  const fixture = JSON.parse(readFileSync(join(SCHEMAS, file), 'utf8')) as { source: string; schema: Record<string, unknown> };
  expect(fixture.source).toMatch(/https:\/\/replicate\.com\//);
  // Stricter than Replicate, which drops unknown fields silently: a field the model does not have is a failure here.
  const validate = ajv.compile({ ...fixture.schema, additionalProperties: false });
  validators.set(file, validate);
  return validate;
}

const available = MODELS.filter((m) => !m.upcoming);
/** The entries that plan their own predictions (variations run their source's). */
const planning = available.filter((m) => !m.rerun);

/** Every set of the entry's pictures a request may carry: each optional one given or not, the required ones always. */
function pictureSets(model: ModelDef): Array<Array<[ImageInputId, ImageInputDef]>> {
  const declared = Object.entries(model.inputs.images) as Array<[ImageInputId, ImageInputDef]>;
  const all = declared.reduce<Array<Array<[ImageInputId, ImageInputDef]>>>((sets, e) => sets.flatMap((set) => [set, [...set, e]]), [[]]);
  return all.filter((set) => declared.every(([id, d]) => !d.required || set.some(([given]) => given === id)));
}

/** The inputs a model's registry entry can build: every combination, each extreme seed, with and without extras. */
function inputsOf(model: ModelDef): Array<{ file: string; input: Record<string, unknown>; label: string }> {
  const out: Array<{ file: string; input: Record<string, unknown>; label: string }> = [];
  const seed = (v: number): Record<string, OptionValue> => ('seed' in model.options ? { seed: v } : {});
  const extras: Array<Record<string, OptionValue>> = [seed(0), { ...seed(SEED_MAX), ...('negativePrompt' in model.options ? { negativePrompt: 'blurry' } : {}) }];
  for (const combo of everyCombination(model)) {
    for (const extra of extras) {
      const r = resolveOptions(model, { ...combo, ...extra }, () => 1);
      if (!r.ok) continue;
      for (const set of pictureSets(model)) {
        if (model.refuseImages?.(r.options, new Set(set.map(([id]) => id)))) continue;
        const hasImage = set.some(([id]) => id !== 'endImage');
        const plan = model.plan(r.options, 'a prompt', hasImage);
        const pictures = Object.fromEntries(set.map(([id, d]) => [d.field, `https://example.com/${id}.png`]));
        const sizes = plan.inputForImage ? [{ width: 832, height: 480 }, { width: 480, height: 832 }] : [undefined];
        for (const size of sizes) {
          const input = { ...plan.input, ...pictures, ...(size ? plan.inputForImage!(size) : {}) };
          out.push({ file: plan.model.schema, input, label: `${model.slug} ${JSON.stringify({ ...r.options, hasImage, size })}` });
          // A clip's later segments: each gets the previous segment's last frame as its image.
          for (const [i, next] of (plan.continuation ?? []).entries()) {
            const nextInput = { ...next.input, image: 'https://example.com/last-frame.png', ...(size && next.inputForImage ? next.inputForImage(size) : {}) };
            out.push({ file: next.model.schema, input: nextInput, label: `${model.slug} segment ${i + 2} ${JSON.stringify({ ...r.options, hasImage, size })}` });
          }
        }
      }
    }
  }
  return out;
}

function resolved(model: ModelDef, given: Record<string, OptionValue>) {
  const r = resolveOptions(model, given, () => 0);
  if (!r.ok) throw new Error(r.reason);
  return r.options;
}

describe('the model registry', () => {
  it('names a stored schema fixture for every Replicate model it runs, and every fixture belongs to one', () => {
    const named = new Set(available.flatMap((m) => m.models.map((r) => r.schema)));
    expect(new Set(readdirSync(SCHEMAS))).toEqual(named);
  });

  it.each(planning.map((m) => [m.slug, m] as const))('%s: every input it can build is accepted by the published schema', (_slug, model) => {
    const inputs = inputsOf(model);
    expect(inputs.length).toBeGreaterThan(0);
    const problems: string[] = [];
    for (const { file, input, label } of inputs) {
      const validate = validatorOf(file);
      if (!validate(input)) problems.push(`${label}: ${ajv.errorsText(validate.errors)}`);
    }
    expect(problems).toEqual([]);
  });

  it('prices every orderable combination as a positive whole number, and names the allowed values when refusing', () => {
    for (const model of available) {
      for (const combo of everyCombination(model)) {
        const p = priceOf(model, combo);
        if (p.ok) expect(Number.isInteger(p.cost) && p.cost > 0).toBe(true);
        else expect(p.reason).toMatch(/\w/);
      }
    }
    const sdxl = MODELS.find((m) => m.slug === 'sdxl')!;
    expect(priceOf(sdxl, { count: 4 })).toEqual({ ok: true, cost: 4 });
    expect(priceOf(sdxl, { aspectRatio: '2:1' })).toEqual({ ok: false, reason: 'Aspect ratio must be 1:1, 16:9, 9:16, 4:3 or 3:4.' });
    expect(priceOf(sdxl, { count: 5 })).toEqual({ ok: false, reason: 'Images must be 1, 2, 3 or 4.' });
    expect(priceOf(sdxl, { style: 'anime' })).toEqual({ ok: false, reason: 'SDXL takes no style. Its options: aspectRatio, count, negativePrompt, seed.' });
    expect(priceOf(sdxl, { seed: -1 })).toEqual({ ok: false, reason: `Seed must be a whole number from 0 to ${SEED_MAX}.` });
    const pixverse = MODELS.find((m) => m.slug === 'pixverse')!;
    expect(priceOf(pixverse, { quality: '1080p', duration: 8 })).toEqual({ ok: false, reason: '1080p is available only for 5-second clips.' });
    const kling = MODELS.find((m) => m.slug === 'kling')!;
    expect(kling).toMatchObject({ upcoming: false, name: 'Kling 2.1' });
    expect([5, 10].flatMap((duration) => ['720p', '1080p'].map((quality) => priceOf(kling, { duration, quality })))).toEqual(
      [8, 13, 16, 26].map((cost) => ({ ok: true, cost })),
    );
    expect(kling.refuseImages?.(resolved(kling, {}), new Set(['startImage', 'endImage']))).toBe('An end image needs 1080p quality.');
    expect(kling.refuseImages?.(resolved(kling, { quality: '1080p' }), new Set(['startImage', 'endImage']))).toBeUndefined();
  });

  it('draws a seed when none is given, and keeps the one given', () => {
    const sdxl = MODELS.find((m) => m.slug === 'sdxl')!;
    expect(resolveOptions(sdxl, {}, () => 1234)).toMatchObject({ ok: true, options: { seed: 1234, aspectRatio: '1:1', count: 1 } });
    expect(resolveOptions(sdxl, { seed: 5 }, () => 1234)).toMatchObject({ ok: true, options: { seed: 5 } });
  });

  it('plans a batch as one prediction per image, each with one output and the next seed (wrapping past the largest), at the same price', () => {
    for (const slug of ['sdxl', 'flux-fast']) {
      const def = MODELS.find((m) => m.slug === slug)!;
      const four = resolved(def, { count: 4, seed: SEED_MAX - 1 });
      const plan = def.plan(four, 'boats', false);
      expect([plan.input.num_outputs, plan.input.seed, plan.seeds]).toEqual([1, SEED_MAX - 1, [SEED_MAX - 1, SEED_MAX, 0, 1]]);
      expect(def.price(four)).toBe(4);
      expect(def.plan(resolved(def, { count: 1, seed: 3 }), 'boats', false).seeds).toBeUndefined();
    }
  });
});
