/**
 * Turns a generation request into a job request from the model's registry entry (contract/models/): the options
 * are checked (400 naming the allowed values), the seed drawn when none was given, the price and the model's input
 * built. Nothing else decides a price or an input.
 */
import { resolveOptions, SEED_MAX, type ModelDef, type OptionValues } from '../../../contract/models';
import { InvalidInput } from '../../domain/errors';
import { randomSeed } from '../../domain/ids';
import type { JobRequest } from './start-job';

/** `startMediaId`: one of the caller's image results as the start image instead of an upload (Animate). */
export function planGeneration(model: ModelDef, prompt: string, given: OptionValues, startImageKey: string | undefined, startMediaId?: string): JobRequest {
  const r = resolveOptions(model, given, () => randomSeed(SEED_MAX));
  if (!r.ok) throw new InvalidInput(r.reason);
  const plan = model.plan(r.options, prompt, Boolean(startImageKey || startMediaId));
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
    ...(startImageKey ? { startImageKey } : {}),
    ...(startMediaId ? { startMediaId } : {}),
    options: model.shown(r.options),
  };
}
