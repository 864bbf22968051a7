import type { GenerationResponse } from '../../../../contract/schemas';
import { api } from '../../lib/api-client';
import type { ApiBody } from '../../lib/api-routes';
import { setCredits } from '../credits';
import type { ActiveJob } from './active-jobs';
import { askToNotifyOnce } from './finished-notice';
import { GenerationText } from './generation-messages';
import { jobTracker } from './jobs';

export type GenerationRequest =
  | { route: 'generateImage'; body: ApiBody<'generateImage'> }
  | { route: 'generateVideo'; body: ApiBody<'generateVideo'> }
  | { route: 'generations'; body: ApiBody<'generations'> };

/**
 * Asks the server to start a generation, takes the balance it answers with and tracks the new job. Returns the
 * message to show when the answer has no prediction id; throws what the request throws.
 */
export async function startGeneration(
  request: GenerationRequest,
  { prompt, ...job }: Omit<ActiveJob, 'predictionId' | 'createdAt' | 'owner'>,
): Promise<string | undefined> {
  // Typed as the contract says, read as what may actually come back.
  const res: Partial<GenerationResponse> | undefined =
    request.route === 'generateImage'
      ? await api.generateImage({ body: request.body })
      : request.route === 'generateVideo'
        ? await api.generateVideo({ body: request.body })
        : await api.generations({ body: request.body });
  if (!res?.predictionId) return GenerationText.noPredictionId;
  if (typeof res.credits === 'number') setCredits(res.credits);
  jobTracker.add({ predictionId: res.predictionId, prompt, createdAt: Date.now(), ...job });
  askToNotifyOnce(job);
  return undefined;
}
