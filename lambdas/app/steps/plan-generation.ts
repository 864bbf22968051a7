/**
 * Turns a generation request into a job request from the model's registry entry (contract/models/): the options
 * are checked (400 naming the allowed values), the seed drawn when none was given, the price and the model's input
 * built. Nothing else decides a price or an input.
 */
import { resolveOptions, SEED_MAX, type ImageInputId, type ModelDef, type OptionValues } from '../../../contract/models';
import { InvalidInput } from '../../domain/errors';
import { randomSeed } from '../../domain/ids';
import type { JobRequest, PictureRef } from './start-job';

/** `pictures`: the start, end or source pictures the request names, each already checked against the entry's inputs. */
export function planGeneration(model: ModelDef, prompt: string, given: OptionValues, pictures: readonly PictureRef[] = []): JobRequest {
  const r = resolveOptions(model, given, () => randomSeed(SEED_MAX));
  if (!r.ok) throw new InvalidInput(r.reason);
  const refused = model.refuseImages?.(r.options, new Set<ImageInputId>(pictures.map((p) => p.input)));
  if (refused) throw new InvalidInput(refused);
  const plan = model.plan(r.options, prompt, pictures.some((p) => p.input !== 'endImage'), given.seed !== undefined);
  return {
    kind: model.kind,
    model: plan.model.id,
    ...(plan.model.version ? { version: plan.model.version } : {}),
    prompt,
    cost: model.price(r.options),
    input: plan.input,
    ...(plan.inputForImage ? { inputForImage: plan.inputForImage } : {}),
    ...(plan.continuation?.length
      ? {
          continuation: plan.continuation.map((c) => ({
            model: c.model.id,
            ...(c.model.version ? { version: c.model.version } : {}),
            input: c.input,
            ...(c.inputForImage ? { inputForImage: c.inputForImage } : {}),
          })),
        }
      : {}),
    ...(plan.seeds?.length ? { seeds: plan.seeds } : {}),
    ...(pictures.length ? { pictures } : {}),
    ...(model.waitSeconds ? { waitSeconds: model.waitSeconds } : {}),
    options: model.shown(r.options),
  };
}
