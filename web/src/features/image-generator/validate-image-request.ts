import { IMAGE_COST } from '../../../../contract/catalog';
import { GenerationText } from '../generation';

export interface ImageRequestDraft {
  prompt: string;
  signedIn: boolean;
  /** undefined while the balance is not known. */
  credits: number | undefined;
  /** The request's price (1 credit an image); IMAGE_COST when left out. */
  cost?: number;
}

/** The image generator's checks before calling the server, in the spec's order. */
export function validateImageRequest({ prompt, signedIn, credits, cost = IMAGE_COST }: ImageRequestDraft): string | undefined {
  if (prompt.trim() === '') return GenerationText.enterPrompt;
  if (!signedIn) return GenerationText.signInToGenerateImages;
  if (credits === undefined || credits < cost) return GenerationText.notEnoughCredits(cost);
  return undefined;
}
