/**
 * /generator, the image generator: credits and Buy Credits, the model, prompt, optional start image, the error line,
 * running jobs, 'Generate Image (1 Credit)'; the preview (the newest image unless one is chosen) with the
 * 'Generating...' overlay, and 'Previous Images'. The layout and the order are the generators' one (GeneratorLayout).
 */
import { MODELS } from '../../../../contract/models';
import { IMAGE_GENERATORS, OPERATIONS } from '../../../../contract/models/view';
import { GenerationText, GeneratorLayout, type GeneratorPage } from '../generation';
import { ImagePreview } from './image-preview';

const PAGE: GeneratorPage = {
  id: 'image',
  // Every available registry entry that makes a picture from a prompt (SDXL, the default, first).
  models: MODELS.filter((m) => IMAGE_GENERATORS.some((v) => v.id === m.slug && !v.upcoming)),
  follows: OPERATIONS,
  title: 'Image Generator',
  description: 'Describe an image, or start from your own picture. Each model shows what an image costs.',
  sidebarLabel: 'Image settings',
  placeholder: 'A lighthouse on a cliff at dusk, cinematic lighting',
  texts: { enterPrompt: GenerationText.enterPrompt, signIn: GenerationText.signInToGenerateImages, failed: GenerationText.errorGeneratingImage },
  media: { type: 'image' },
  gallery: {
    title: GenerationText.previousImages,
    messages: {
      loadFailed: () => GenerationText.failedToLoadImages,
      moreFailed: () => GenerationText.failedToLoadImages,
      deleteFailed: GenerationText.failedToDeletePrompt,
      empty: 'Your images will appear here.',
      emptyHint: 'Write a prompt in the settings and press Generate: each image costs 1 credit.',
    },
    columns: 'images',
    pickable: true,
  },
  readyText: (prompt) => `Image ready: ${prompt}`,
  loadingWindow: false,
  Preview: ImagePreview,
};

function ImageGeneratorPage() {
  return <GeneratorLayout page={PAGE} />;
}

export default ImageGeneratorPage;
