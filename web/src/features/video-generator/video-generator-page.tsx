/**
 * One video model's generator, all from its registry entry: credits box and Buy Credits, prompt, its start image,
 * the choices that set the price as priced tiles and its other options, the error area, the active jobs with their
 * progress, a Generate button with the registry's price; a loading modal while generating; the newest result and
 * 'Previous Videos'. It orders through POST /api/generations, so a new video model needs nothing here.
 */
import { useRef, useState } from 'react';
import { STORAGE_KEYS, storedValue } from '../../lib/browser-storage';
import { Link } from 'react-router-dom';
import { MAX_ACTIVE_JOBS } from '../../../../contract/catalog';
import { Messages } from '../../../../contract/errors';
import { priceOf, replicateModelOf, resolveOptions, VIDEO_MODELS, type ModelDef } from '../../../../contract/models';
import { MODEL_VIEWS } from '../../../../contract/models/view';
import { useSession } from '../auth';
import { useCredits } from '../credits';
import { api } from '../../lib/api-client';
import { CreditsBox, type GalleryMessages, generateBlockedReason, GenerationText, GeneratorForm, GeneratorShell, IGNORED_WITH_IMAGE, isAnyJob, JobTiles, type MediaItemView, MediaGallery, ModelOptions, type OptionState, PreviewSlot, requestOptions, reasonOf, reusedOptions, startGeneration, StartImagePicker, StartMediaCard, uploadStartImage, useActiveJobs, useJobStatuses, useMediaList, useResultPreview, useReuseFromUrl, useStartImage, optionsIgnoredWithImage, videoFamilyJobs } from '../generation';
import { generateLabel } from '../marketing';
import { validateVideoRequest } from './validate-video-request';
import { GeneratingModal } from './generating-modal';
import { VideoOptions } from './video-options';
import { VideoPreview } from './video-preview';

const GALLERY_MESSAGES: GalleryMessages = {
  loadFailed: () => GenerationText.failedToLoadVideos,
  moreFailed: GenerationText.errorFetchingData,
  deleteFailed: () => GenerationText.failedToDeleteVideo,
  empty: 'Your videos will appear here.',
  emptyHint: 'Write a prompt in the settings, or add a start image, and press Generate.',
};

function generatorModel(slug: string): ModelDef {
  const model = VIDEO_MODELS.find((m) => m.slug === slug && !m.upcoming);
  if (!model) throw new Error(`No video generator for ${slug}`);
  return model;
}

/** The choices shown as priced tiles: those the registry's price table spans (quality, duration), unless advanced. */
function pricedChoices(model: ModelDef): string[] {
  const prices = MODEL_VIEWS.find((m) => m.id === model.slug)?.prices;
  return [prices?.rows?.id, prices?.columns?.id].filter((id): id is string => id !== undefined && model.options[id]?.advanced === false);
}

export function VideoGeneratorPage({ slug }: { slug: string }) {
  const model = generatorModel(slug);
  const filter = videoFamilyJobs(slug);
  const tiles = pricedChoices(model);
  const startInput = model.inputs.images.startImage;
  const { user } = useSession();
  const { credits } = useCredits();
  const [prompt, setPrompt] = useState('');
  const [options, setOptions] = useState<OptionState>({});
  const [error, setError] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState(false);
  /** The window opens for a Generate pressed here, until the user sends jobs to the background: then never again. */
  const [modalWanted, setModalWanted] = useState(false);
  const [inBackground, setInBackground] = useState(() => storedValue(STORAGE_KEYS.jobsInBackground).get() === '1');
  const [announcement, setAnnouncement] = useState('');
  const startImage = useStartImage(slug, setError);
  /** One of the user's images as the start image (Animate, or a reused video's settings): sent by id. */
  const [startMedia, setStartMedia] = useState<MediaItemView | undefined>();
  const jobs = useActiveJobs(filter);
  const queue = useActiveJobs(isAnyJob);
  const running = queue.length;
  const statuses = useJobStatuses();
  // Each generator's history holds its own model's results (the registry slug is the list's model filter).
  const media = useMediaList('video', { model: slug });
  const modalAction = useRef<HTMLButtonElement>(null);
  useReuseFromUrl({
    onReuse: (item, use) => {
      setPrompt(item.prompt);
      if (use !== 'settings') return;
      const o = item.options;
      setOptions(reusedOptions(model, o));
      // Its start image, when it was one of the user's images that still exists.
      if (startInput && typeof o.startMediaId === 'string') {
        api.getMedia({ params: { id: o.startMediaId } }).then(setStartMedia, () => undefined);
      }
    },
    onStartMedia: (item) => {
      if (startInput) setStartMedia(item);
    },
    onError: setError,
  });
  const preview = useResultPreview({
    generator: slug,
    filter,
    media,
    newest: media.items.find((i) => model.models.some((r) => r.id === i.model)),
    onReady: (text) => setAnnouncement(`Video ready: ${text || GenerationText.noPrompt}`),
    onFailed: setError,
  });

  const hasImage = Boolean(startImage.image || startMedia);
  const ignored = hasImage ? Object.fromEntries(optionsIgnoredWithImage(model).map((id) => [id, IGNORED_WITH_IMAGE])) : {};
  const price = priceOf(model, options);
  const cost = price.ok ? price.cost : undefined;
  const generating = submitting || jobs.length > 0;
  const canAfford = credits !== undefined && cost !== undefined && credits >= cost;
  // A running job locks nothing (the queue): only short credits lock the prompt (spec), and a full queue the button.
  const locked = !canAfford;
  const queueFull = running >= MAX_ACTIVE_JOBS;
  // Options stay open when the balance is short, so a cheaper combination can still be picked.
  const optionsLocked = submitting || credits === undefined;

  async function generate() {
    if (submitting || cost === undefined) return;
    if (queueFull) {
      setError(Messages.tooManyActiveJobs(MAX_ACTIVE_JOBS));
      return;
    }
    const problem = validateVideoRequest({ prompt, signedIn: Boolean(user), credits, cost });
    if (problem) {
      setError(problem);
      return;
    }
    const text = prompt.trim();
    setError(undefined);
    setAnnouncement('');
    setModalWanted(true);
    setSubmitting(true);
    try {
      const image = startImage.image && !startMedia ? await uploadStartImage(startImage.image, slug) : undefined;
      const start = startMedia?.id ?? image;
      // An option the model does not read with a start image is not asked for.
      const asked = requestOptions(Object.fromEntries(Object.entries(options).filter(([id]) => !(id in ignored))));
      // The tiles' values are sent as shown, defaults included: the order says what the button priced.
      const resolved = resolveOptions(model, asked, () => 0);
      const shown = resolved.ok ? Object.fromEntries(tiles.map((id) => [id, resolved.options[id]!])) : {};
      const failure = await startGeneration(
        { route: 'generations', body: { model: slug, prompt: text, options: { ...asked, ...shown }, ...(start ? { inputs: { startImage: start } } : {}) } },
        { prompt: text, kind: 'video', model: replicateModelOf(model, asked, Boolean(start)) ?? slug, cost, options: { ...shown, ...(start ? { startImage: true } : {}) } },
      );
      if (failure) setError(failure);
    } catch (err) {
      setError(GenerationText.errorGeneratingVideo(reasonOf(err)));
    } finally {
      setSubmitting(false);
    }
  }

  return (
    <GeneratorShell
      title={model.name}
      description={model.tagline}
      eyebrow={
        <Link to="/video-generator" className="mb-2 inline-flex items-center gap-1 rounded-control text-sm text-ink-muted hover:text-ink">
          <span aria-hidden="true">←</span> All video models
        </Link>
      }
      sidebarLabel="Video settings"
      sidebar={
        <>
          <CreditsBox cost={cost ?? 0} />
          <GeneratorForm
            prompt={prompt}
            onPromptChange={setPrompt}
            placeholder="A paper boat drifting down a rainy street, slow dolly shot"
            onGenerate={() => void generate()}
            locked={locked}
            error={error}
            submitLabel={generateLabel('video', cost)}
            submitDisabled={locked || queueFull || cost === undefined}
            disabledReason={generateBlockedReason({ credits, cost, priceReason: price.ok ? undefined : price.reason, running })}
            submitting={submitting}
          >
            {startInput && startMedia && <StartMediaCard item={startMedia} onRemove={() => setStartMedia(undefined)} disabled={submitting} />}
            {startInput && !startMedia && <StartImagePicker state={startImage} onError={setError} disabled={locked} hint={startInput.hint} />}
            <VideoOptions model={model} ids={tiles} value={options} onChange={setOptions} disabled={optionsLocked} />
            <ModelOptions model={model} value={options} onChange={setOptions} disabled={optionsLocked} skip={tiles} ignored={ignored} />
          </GeneratorForm>
        </>
      }
    >
      <JobTiles jobs={jobs} queue={queue} statuses={statuses} onError={setError} />
      <PreviewSlot slotRef={preview.ref} announcement={announcement} failure={preview.failure} onDismissFailure={preview.dismissFailure} canceled={preview.canceled} onDismissCanceled={preview.dismissCanceled}>
        <VideoPreview video={preview.shown} item={preview.shownItem} listLoading={media.status === 'loading'} onError={setError} />
      </PreviewSlot>
      <MediaGallery
        title={GenerationText.previousVideos}
        list={media}
        messages={GALLERY_MESSAGES}
        onDeleted={preview.onDeleted}
        columns="videos"
      />
      <GeneratingModal
        open={generating && modalWanted && !inBackground}
        submitting={submitting && jobs.length === 0}
        uploading={submitting && hasImage}
        jobs={jobs}
        statuses={statuses}
        onHide={() => {
          storedValue(STORAGE_KEYS.jobsInBackground).set('1');
          setInBackground(true);
          setModalWanted(false);
        }}
        actionRef={modalAction}
      />
    </GeneratorShell>
  );
}
