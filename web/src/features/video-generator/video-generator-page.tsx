/**
 * One video model's generator, all from its registry entry (GeneratorLayout): credits box and Buy Credits, prompt, the
 * pictures it takes, the choices that set the price as priced tiles and its other options, the error area, the active
 * jobs with their progress, a Generate button with the registry's price; a loading modal while generating; the newest
 * result and 'Previous Videos'. A new video model needs nothing here.
 */
import { Link } from 'react-router-dom';
import { VIDEO_MODELS, type ModelDef } from '../../../../contract/models';
import { GenerationText, GeneratorLayout, type GeneratorPage } from '../generation';
import { VideoPreview } from './video-preview';

function generatorModel(slug: string): ModelDef {
  const model = VIDEO_MODELS.find((m) => m.slug === slug && !m.upcoming);
  if (!model) throw new Error(`No video generator for ${slug}`);
  return model;
}

function videoPage(model: ModelDef): GeneratorPage {
  return {
    id: model.slug,
    models: [model],
    title: model.name,
    description: model.tagline,
    eyebrow: (
      <Link to="/video-generator" className="mb-2 inline-flex items-center gap-1 rounded-control text-sm text-ink-muted hover:text-ink">
        <span aria-hidden="true">←</span> All video models
      </Link>
    ),
    sidebarLabel: 'Video settings',
    placeholder: 'A paper boat drifting down a rainy street, slow dolly shot',
    texts: { enterPrompt: GenerationText.promptRequired, signIn: GenerationText.signIn, failed: GenerationText.errorGeneratingVideo },
    // Each generator's history holds its own model's results (the registry slug is the list's model filter).
    media: { type: 'video', model: model.slug },
    gallery: {
      title: GenerationText.previousVideos,
      messages: {
        loadFailed: () => GenerationText.failedToLoadVideos,
        moreFailed: GenerationText.errorFetchingData,
        deleteFailed: () => GenerationText.failedToDeleteVideo,
        empty: 'Your videos will appear here.',
        emptyHint: 'Write a prompt in the settings, or add a start image, and press Generate.',
      },
      columns: 'videos',
      pickable: false,
    },
    readyText: (prompt) => `Video ready: ${prompt || GenerationText.noPrompt}`,
    loadingWindow: true,
    Preview: VideoPreview,
  };
}

export function VideoGeneratorPage({ slug }: { slug: string }) {
  return <GeneratorLayout page={videoPage(generatorModel(slug))} />;
}
