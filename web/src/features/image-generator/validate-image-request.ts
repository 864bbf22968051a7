import { IMAGE_COST } from '../../../../contract/catalog';
import { GenerationText } from '../generation';

export interface ImageRequestDraft {
  prompt: string;
  signedIn: boolean;
  /** undefined while the balance is not known. */
  credits: number | undefined;
}

/** The image generator's checks before calling the server (spec section 5), in the spec's order. */
export function validateImageRequest({ prompt, signedIn, credits }: ImageRequestDraft): string | undefined {
  if (prompt.trim() === '') return GenerationText.enterPrompt;
  if (!signedIn) return GenerationText.signInToGenerateImages;
  if (credits === undefined || credits < IMAGE_COST) return GenerationText.notEnoughCredits(IMAGE_COST);
  return undefined;
}
