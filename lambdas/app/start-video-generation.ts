/**
 * POST /api/generate-video: the model's registry entry (contract/models/) checks and prices the request and builds
 * the real model's input; startJob charges, calls the provider and refunds on refusal.
 */
import { WAN_I2V, WAN_T2V } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import { modelOfReplicate } from '../../contract/models';
import type { GenerateVideoRequest, GenerationResponse } from '../../contract/schemas';
import { InvalidInput } from '../domain/errors';
import { getOrCreateAccount, type Caller, type GetAccountDeps } from './get-or-create-account';
import { planGeneration } from './steps/plan-generation';
import { startJob, type StartJobDeps } from './steps/start-job';

export type StartVideoGenerationDeps = GetAccountDeps & StartJobDeps;

/** The account is made on first use (welcome credits), before the price is charged. */
export async function startVideoGeneration(deps: StartVideoGenerationDeps, caller: Caller, v: GenerateVideoRequest): Promise<GenerationResponse> {
  const { prompt, model, image, startMediaId, ...options } = v;
  const def = modelOfReplicate(model);
  if (!def || def.kind !== 'video') throw new InvalidInput(`Unknown model: ${model}.`);
  const hasImage = Boolean(image || startMediaId);
  if (image && startMediaId) throw new InvalidInput(Messages.startImageTwice);
  if (model === WAN_I2V && !hasImage) throw new InvalidInput(Messages.wanNeedsImage);
  if (model === WAN_T2V && hasImage) throw new InvalidInput(Messages.wanTextTakesNoImage);
  if (hasImage && !def.acceptsStartImage) throw new InvalidInput(`${def.name} takes no start image.`);
  const request = planGeneration(def, prompt, options, image, startMediaId);
  const account = await getOrCreateAccount(deps, caller);
  return startJob(deps, caller.sub, request, account.credits);
}
