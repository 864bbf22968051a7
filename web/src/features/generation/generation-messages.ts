/**
 * What the generators, their galleries and My Account say, verbatim. Messages the
 * server also sends come from contract/errors, so both sides say the same thing.
 */
import { Messages } from '../../../../contract/errors';
import { errorFetchingData } from '../../lib/messages';

export const GenerationText = {
  // Image generator.
  enterPrompt: Messages.enterPrompt,
  signInToGenerateImages: Messages.signInToGenerateImages,
  notEnoughCredits: Messages.notEnoughCredits,
  noPredictionId: Messages.noPredictionId,
  imageGenerationFailed: Messages.imageGenerationFailed,
  errorGeneratingImage: (reason: string) => `Error generating image: ${reason}`,
  generating: 'Generating...',
  generatingJob: (prompt: string) => `Generating: ${prompt}...`,
  noImageYet: 'No image generated yet.',
  previousImages: 'Previous Images',
  failedToLoadImages: 'Failed to load previous images',

  // Video generators.
  promptRequired: Messages.promptRequired,
  signIn: Messages.signIn,
  videoGenerationFailed: Messages.videoGenerationFailed,
  unknownError: Messages.unknownError,
  errorGeneratingVideo: (message: string) => `Error generating video: ${message}`,
  previousVideos: 'Previous Videos',
  noPrompt: 'No prompt',
  failedToLoadVideos: 'Failed to load previous videos',
  errorFetchingData,
  failedToDeleteVideo: 'Failed to delete video',

  // Job checks.
  checkStatusFailed: (text: string) => `Failed to check status: ${text}`,
  checkJobError: (reason: string) => `Error checking job: ${reason}`,

  // Start image.
  imageTooLarge: Messages.imageTooLarge,
  invalidImage: Messages.invalidImage,

  // Delete and download, My Account.
  signInToDelete: 'Please sign in to delete prompts.',
  sourceMissing: 'Prompt source is missing.',
  failedToDeletePrompt: (reason: string) => `Failed to delete prompt: ${reason}`,
  failedToFetchPrompts: (reason: string) => `Failed to fetch prompts: ${reason}`,
  signInToAccessPrompts: 'Please sign in to access your prompts.',
  noPreviousPrompts: 'No previous prompts to display.',
} as const;

/** The text of anything thrown. */
export function reasonOf(err: unknown): string {
  if (err instanceof Error && err.message) return err.message;
  if (typeof err === 'string' && err) return err;
  return GenerationText.unknownError;
}
