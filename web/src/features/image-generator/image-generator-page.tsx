/**
 * /generator, the image generator: credits and Buy Credits, prompt, optional start image, the
 * error line, running jobs, 'Generate Image (1 Credit)'; the preview (the newest image unless one is chosen) with
 * the 'Generating...' overlay, and 'Previous Images'.
 */
import { useState } from 'react';
import { MAX_ACTIVE_JOBS } from '../../../../contract/catalog';
import { Messages } from '../../../../contract/errors';
import { modelOfReplicate, priceOf, replicateModelOf, sdxl, type ModelDef } from '../../../../contract/models';
import { useSession } from '../auth';
import { useCredits } from '../credits';
import { CreditsBox, type GalleryMessages, generateBlockedReason, GenerationText, GeneratorForm, GeneratorShell, isAnyJob, isImageJob, JobTiles, MediaGallery, ModelOptions, type OptionState, PreviewSlot, requestOptions, reasonOf, reusedOptions, startGeneration, StartImagePicker, uploadStartImage, useActiveJobs, useJobStatuses, useMediaList, useResultPreview, useReuseFromUrl, useStartImage } from '../generation';
import { generateLabel } from '../marketing';
import { ImageModelPicker, IMAGE_MODELS } from './image-model-picker';
import { ImagePreview } from './image-preview';
import { validateImageRequest } from './validate-image-request';

const GALLERY_MESSAGES: GalleryMessages = {
  loadFailed: () => GenerationText.failedToLoadImages,
  moreFailed: () => GenerationText.failedToLoadImages,
  deleteFailed: GenerationText.failedToDeletePrompt,
  empty: 'Your images will appear here.',
  emptyHint: 'Write a prompt in the settings and press Generate: each image costs 1 credit.',
};

function ImageGeneratorPage() {
  const { user } = useSession();
  const { credits } = useCredits();
  const [prompt, setPrompt] = useState('');
  const [model, setModel] = useState<ModelDef>(sdxl);
  const [options, setOptions] = useState<OptionState>({});
  const [error, setError] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const startImage = useStartImage('image', setError);
  const jobs = useActiveJobs(isImageJob);
  const queue = useActiveJobs(isAnyJob);
  const running = queue.length;
  const statuses = useJobStatuses();
  const media = useMediaList('image');
  useReuseFromUrl({
    onReuse: (item, use) => {
      setPrompt(item.prompt);
      if (use !== 'settings') return;
      // Its own model's settings: a FLUX result reopens FLUX.
      const made = IMAGE_MODELS.find((m) => m === modelOfReplicate(item.model)) ?? sdxl;
      setModel(made);
      setOptions(reusedOptions(made, item.options));
    },
    onError: setError,
  });
  const preview = useResultPreview({
    generator: 'image',
    filter: isImageJob,
    media,
    newest: media.items[0],
    onReady: (text) => setAnnouncement(`Image ready: ${text}`),
    onFailed: (message) => {
      setError(message);
      setAnnouncement('');
    },
  });

  const generating = submitting || jobs.length > 0;
  const price = priceOf(model, options);
  const cost = price.ok ? price.cost : undefined;
  const count = Number(options.count ?? 1);
  const canAfford = credits !== undefined && cost !== undefined && credits >= cost;
  // A running job locks nothing (the queue): only short credits lock the prompt (spec), and a full queue the button.
  const locked = !canAfford;
  const queueFull = running >= MAX_ACTIVE_JOBS;

  async function generate() {
    if (submitting) return;
    if (queueFull) {
      setError(Messages.tooManyActiveJobs(MAX_ACTIVE_JOBS));
      return;
    }
    const problem = validateImageRequest({ prompt, signedIn: Boolean(user), credits, cost: cost ?? count });
    if (problem) {
      setError(problem);
      return;
    }
    const text = prompt.trim();
    setError(undefined);
    setSubmitting(true);
    setAnnouncement('');
    try {
      const image = model.acceptsStartImage && startImage.image ? await uploadStartImage(startImage.image, 'image') : undefined;
      // SDXL through the spec's generate-image; the other models through the one pipeline by their registry id.
      const failure = await startGeneration(
        model === sdxl
          ? { route: 'generateImage', body: { prompt: text, ...(image ? { image } : {}), ...requestOptions(options) } }
          : { route: 'generations', body: { model: model.slug, prompt: text, options: requestOptions(options) } },
        {
          prompt: text,
          kind: 'image',
          model: replicateModelOf(model, requestOptions(options), Boolean(image)) ?? model.slug,
          ...(cost !== undefined ? { cost } : {}),
          ...(image ? { options: { startImage: true } } : {}),
        },
      );
      if (failure) setError(failure);
    } catch (err) {
      setError(GenerationText.errorGeneratingImage(reasonOf(err)));
      setAnnouncement('');
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <GeneratorShell
      title="Image Generator"
      description="Describe an image, or start from your own picture. Each model shows what an image costs."
      sidebarLabel="Image settings"
      sidebar={
        <>
          <CreditsBox cost={cost ?? count} />
          <GeneratorForm
            prompt={prompt}
            onPromptChange={setPrompt}
            placeholder="A lighthouse on a cliff at dusk, cinematic lighting"
            onGenerate={() => void generate()}
            locked={locked}
            error={error}
            submitLabel={generateLabel('image', cost, count)}
            submitDisabled={locked || queueFull || cost === undefined}
            disabledReason={generateBlockedReason({ credits, cost, priceReason: price.ok ? undefined : price.reason, running })}
            submitting={submitting}
          >
            <ImageModelPicker
              value={model}
              disabled={submitting}
              onChange={(picked) => {
                setModel(picked);
                setOptions({});
              }}
            />
            {model.inputs.images.startImage && <StartImagePicker state={startImage} onError={setError} disabled={locked} hint={model.inputs.images.startImage.hint} />}
            <ModelOptions model={model} value={options} onChange={setOptions} disabled={submitting} />
          </GeneratorForm>
        </>
      }
    >
      <JobTiles jobs={jobs} queue={queue} statuses={statuses} onError={setError} />
      <PreviewSlot slotRef={preview.ref} announcement={announcement} failure={preview.failure} onDismissFailure={preview.dismissFailure} canceled={preview.canceled} onDismissCanceled={preview.dismissCanceled}>
        <ImagePreview image={preview.shown} item={preview.shownItem} generating={generating} listLoading={media.status === 'loading'} onError={setError} />
      </PreviewSlot>
      <MediaGallery
        title={GenerationText.previousImages}
        list={media}
        messages={GALLERY_MESSAGES}
        onSelect={preview.choose}
        selectedId={preview.shown?.mediaId}
        onDeleted={preview.onDeleted}
        columns="images"
      />
    </GeneratorShell>
  );
}

export default ImageGeneratorPage;
