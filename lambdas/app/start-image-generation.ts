import { sdxl } from '../../contract/models';
import type { GenerateImageRequest, GenerationResponse } from '../../contract/schemas';
import { getOrCreateAccount, type Caller, type GetAccountDeps } from './get-or-create-account';
import { planGeneration } from './steps/plan-generation';
import { startJob, type StartJobDeps } from './steps/start-job';

export type StartImageGenerationDeps = GetAccountDeps & StartJobDeps;

/**
 * POST /api/generate-image: SDXL (contract/models/sdxl.ts) for the caller's prompt, optional start image and
 * options (aspect ratio, negative prompt, seed, 1-4 images at 1 credit each). The account is made on first use
 * (welcome credits).
 */
export async function startImageGeneration(deps: StartImageGenerationDeps, caller: Caller, input: GenerateImageRequest): Promise<GenerationResponse> {
  const { prompt, image, ...options } = input;
  const request = planGeneration(sdxl, prompt, options, image);
  const account = await getOrCreateAccount(deps, caller);
  return startJob(deps, caller.sub, request, account.credits);
}
