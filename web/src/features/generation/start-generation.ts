import type { GenerateVideoRequest, GenerationResponse } from '../../../../contract/schemas';
import { api } from '../../lib/api-client';
import { useCredits } from '../credits';
import type { ActiveJob } from './active-jobs';
import { GenerationText } from './generation-messages';
import { jobTracker } from './jobs';

export type GenerationRequest =
  | { path: '/api/generate-image'; body: { prompt: string; image?: string } }
  | { path: '/api/generate-video'; body: GenerateVideoRequest };

/**
 * Asks the server to start a generation, takes the balance it answers with and tracks the new job. Returns the
 * message to show when the answer has no prediction id; throws what the request throws.
 */
export async function startGeneration(
  request: GenerationRequest,
  { prompt, ...job }: Omit<ActiveJob, 'predictionId' | 'createdAt' | 'owner'>,
): Promise<string | undefined> {
  const res = await api.post<Partial<GenerationResponse> | undefined>(request.path, request.body);
  if (!res?.predictionId) return GenerationText.noPredictionId;
  if (typeof res.credits === 'number') useCredits.getState().setCredits(res.credits);
  jobTracker.add({ predictionId: res.predictionId, prompt, createdAt: Date.now(), ...job });
  return undefined;
}
