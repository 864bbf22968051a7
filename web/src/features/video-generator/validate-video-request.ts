import { GenerationText } from '../generation';

export interface VideoRequestDraft {
  prompt: string;
  signedIn: boolean;
  credits: number | undefined;
  /** The catalog's price of the chosen options. */
  cost: number;
}

/** The video generators' checks before calling the server, in the spec's order. */
export function validateVideoRequest({ prompt, signedIn, credits, cost }: VideoRequestDraft): string | undefined {
  if (prompt.trim() === '') return GenerationText.promptRequired;
  if (!signedIn) return GenerationText.signIn;
  if (credits === undefined || credits < cost) return GenerationText.notEnoughCredits(cost);
  return undefined;
}
