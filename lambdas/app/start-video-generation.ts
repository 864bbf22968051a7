/**
 * POST /api/generate-video: the catalog prices the request (and says why a combination cannot be ordered), this
 * use case turns it into the real model's input, and startJob charges, calls the provider and refunds on refusal.
 */
import { familyOf, priceVideo, PIXVERSE, WAN_CLIP, WAN_I2V, WAN_T2V, type PixverseQuality } from '../../contract/catalog';
import { Messages } from '../../contract/errors';
import type { GenerateVideoRequest, GenerationResponse } from '../../contract/schemas';
import { InvalidInput } from '../domain/errors';
import { getOrCreateAccount, type Caller, type GetAccountDeps } from './get-or-create-account';
import { startJob, type ImageSize, type JobRequest, type StartJobDeps } from './steps/start-job';

export type StartVideoGenerationDeps = GetAccountDeps & StartJobDeps;

/** The Replicate input for a priced request (without the start image, which startGeneration adds; also scripts/showcase.ts). */
export function modelRequest(v: GenerateVideoRequest): Pick<JobRequest, 'input' | 'inputForImage' | 'options'> {
  if (v.model === WAN_I2V || v.model === WAN_T2V) {
    const clip = WAN_CLIP[v.duration]!;
    const input = { prompt: v.prompt, ...clip };
    // Text-to-video picks its frame from aspect_ratio; image-to-video follows the start image within max_area.
    if (v.model === WAN_T2V) return { input: { ...input, aspect_ratio: '16:9' }, options: { duration: v.duration } };
    return {
      input,
      inputForImage: (size: ImageSize) => ({ max_area: size.height > size.width ? '480x832' : '832x480' }),
      options: { duration: v.duration },
    };
  }
  const quality = (v.quality ?? familyOf(PIXVERSE)!.defaultQuality) as PixverseQuality;
  return {
    // motion_mode 'smooth' would double the provider's price and is not offered.
    input: { prompt: v.prompt, quality, duration: v.duration, aspect_ratio: '16:9', motion_mode: 'normal' },
    options: { duration: v.duration, quality },
  };
}

/** The account is made on first use (welcome credits), before the price is charged. */
export async function startVideoGeneration(deps: StartVideoGenerationDeps, caller: Caller, v: GenerateVideoRequest): Promise<GenerationResponse> {
  const price = priceVideo(v.model, v.duration, v.quality);
  if (!price.ok) throw new InvalidInput(price.reason);
  if (v.model === WAN_I2V && !v.image) throw new InvalidInput(Messages.wanNeedsImage);
  if (v.model === WAN_T2V && v.image) throw new InvalidInput(Messages.wanTextTakesNoImage);
  const account = await getOrCreateAccount(deps, caller);
  const request: JobRequest = {
    kind: 'video',
    model: v.model,
    prompt: v.prompt,
    cost: price.cost,
    ...modelRequest(v),
    ...(v.image ? { startImageKey: v.image } : {}),
  };
  return startJob(deps, caller.sub, request, account.credits);
}
