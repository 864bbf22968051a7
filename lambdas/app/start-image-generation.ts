import { IMAGE_MODEL } from '../../contract/catalog';
import type { GenerateImageRequest, GenerationResponse } from '../../contract/schemas';
import { getOrCreateAccount, type Caller, type GetAccountDeps } from './get-or-create-account';
import { startJob, type StartJobDeps } from './steps/start-job';

export type StartImageGenerationDeps = GetAccountDeps & StartJobDeps;

/**
 * POST /api/generate-image: the spec's fixed image request (768x768, 25 steps, refiner, no watermark) for the
 * caller's prompt and optional start image, charged 1 credit. The account is made on first use (welcome credits).
 */
export async function startImageGeneration(deps: StartImageGenerationDeps, caller: Caller, input: GenerateImageRequest): Promise<GenerationResponse> {
  const account = await getOrCreateAccount(deps, caller);
  return startJob(
    deps,
    caller.sub,
    {
      kind: 'image',
      model: IMAGE_MODEL.id,
      version: IMAGE_MODEL.version,
      prompt: input.prompt,
      cost: IMAGE_MODEL.cost,
      input: { prompt: input.prompt, ...IMAGE_MODEL.input },
      startImageKey: input.image,
      options: { width: IMAGE_MODEL.input.width, height: IMAGE_MODEL.input.height },
    },
    account.credits,
  );
}
