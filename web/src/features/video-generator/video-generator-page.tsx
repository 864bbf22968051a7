/**
 * One video model's generator: credits box and Buy Credits, prompt, the family's options from the
 * catalog (start image, quality, duration), the error area, the active jobs with their progress, a Generate button
 * with the catalog's price; a loading modal while generating; the newest result and 'Previous Videos'.
 */
import { useRef, useState } from 'react';
import { STORAGE_KEYS, storedValue } from '../../lib/browser-storage';
import { Link } from 'react-router-dom';
import { MAX_ACTIVE_JOBS, videoFamily, type PixverseQuality, type VideoFamily, type VideoFamilyId } from '../../../../contract/catalog';
import { Messages } from '../../../../contract/errors';
import { modelBySlug, priceOf as priceOfModel } from '../../../../contract/models';
import type { GenerateVideoRequest } from '../../../../contract/schemas';
import { useSession } from '../auth';
import { useCredits } from '../credits';
import { api } from '../../lib/api-client';
import { CreditsBox, type GalleryMessages, generateBlockedReason, GenerationText, GeneratorForm, GeneratorShell, IGNORED_WITH_IMAGE, isAnyJob, JobTiles, type MediaItemView, MediaGallery, ModelOptions, type OptionState, PreviewSlot, requestOptions, reasonOf, reusedOptions, startGeneration, StartImagePicker, StartMediaCard, uploadStartImage, useActiveJobs, useJobStatuses, useMediaList, useResultPreview, useReuseFromUrl, useStartImage, optionsIgnoredWithImage, videoFamilyJobs } from '../generation';
import { generateVideoLabel, modelFor, qualityFor } from '../marketing';
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

const DESCRIPTIONS: Partial<Record<VideoFamilyId, string>> = {
  wan: 'Text-to-video at 480p, or image-to-video when you add a start frame.',
  pixverse: 'Sharp, smooth clips at 540p, 720p or 1080p, from text or from a start frame.',
};

function generatorFamily(id: VideoFamilyId): VideoFamily {
  const family = videoFamily(id);
  if (family.upcoming) throw new Error(`No video generator for ${id}`);
  return family;
}

export function VideoGeneratorPage({ familyId }: { familyId: VideoFamilyId }) {
  const family = generatorFamily(familyId);
  const filter = videoFamilyJobs(family.id);
  const { user } = useSession();
  const { credits } = useCredits();
  const [prompt, setPrompt] = useState('');
  const [duration, setDuration] = useState<number>(family.durations[0]!);
  const [quality, setQuality] = useState<PixverseQuality | undefined>(family.defaultQuality);
  const [options, setOptions] = useState<OptionState>({});
  const model = modelBySlug(family.id)!;
  const [error, setError] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState(false);
  /** The window opens for a Generate pressed here, until the user sends jobs to the background: then never again. */
  const [modalWanted, setModalWanted] = useState(false);
  const [inBackground, setInBackground] = useState(() => storedValue(STORAGE_KEYS.jobsInBackground).get() === '1');
  const [announcement, setAnnouncement] = useState('');
  const startImage = useStartImage(family.id, setError);
  /** One of the user's images as the start image (Animate, or a reused video's settings): sent by id. */
  const [startMedia, setStartMedia] = useState<MediaItemView | undefined>();
  const jobs = useActiveJobs(filter);
  const queue = useActiveJobs(isAnyJob);
  const running = queue.length;
  const statuses = useJobStatuses();
  // Each generator's history holds its own model's results (the registry slug is the list's model filter).
  const media = useMediaList('video', { model: family.id });
  const modalAction = useRef<HTMLButtonElement>(null);
  useReuseFromUrl({
    onReuse: (item, use) => {
      setPrompt(item.prompt);
      if (use !== 'settings') return;
      const o = item.options;
      if (family.durations.includes(Number(o.duration))) setDuration(Number(o.duration));
      if (family.qualities.includes(o.quality as PixverseQuality)) setQuality(o.quality as PixverseQuality);
      const { duration: _d, quality: _q, ...rest } = reusedOptions(model, o);
      setOptions(rest);
      // Its start image, when it was one of the user's images that still exists.
      if (family.acceptsStartImage && typeof o.startMediaId === 'string') {
        api.getMedia({ params: { id: o.startMediaId } }).then(setStartMedia, () => undefined);
      }
    },
    onStartMedia: (item) => {
      if (family.acceptsStartImage) setStartMedia(item);
    },
    onError: setError,
  });
  const preview = useResultPreview({
    generator: family.id,
    filter,
    media,
    newest: media.items.find((i) => family.models.includes(i.model as never)),
    onReady: (text) => setAnnouncement(`Video ready: ${text || GenerationText.noPrompt}`),
    onFailed: setError,
  });

  const hasImage = Boolean(startImage.image || startMedia);
  const ignored = hasImage ? Object.fromEntries(optionsIgnoredWithImage(model).map((id) => [id, IGNORED_WITH_IMAGE])) : {};
  const price = priceOfModel(model, { ...options, duration, quality: qualityFor(family, quality) });
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
      const image = startImage.image && !startMedia ? await uploadStartImage(startImage.image, family.id) : undefined;
      const q = qualityFor(family, quality);
      const body: GenerateVideoRequest = {
        model: modelFor(family, Boolean(image || startMedia)),
        prompt: text,
        duration,
        ...(image ? { image } : {}),
        ...(startMedia ? { startMediaId: startMedia.id } : {}),
        ...(q ? { quality: q } : {}),
        // An option the model does not read with a start image is not asked for.
        ...requestOptions(Object.fromEntries(Object.entries(options).filter(([id]) => !(id in ignored)))),
      };
      const failure = await startGeneration(
        { route: 'generateVideo', body },
        { prompt: text, kind: 'video', model: body.model, cost, options: { duration, ...(q ? { quality: q } : {}), ...(image || startMedia ? { startImage: true } : {}) } },
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
      title={family.name}
      description={DESCRIPTIONS[family.id] ?? family.tagline}
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
            submitLabel={generateVideoLabel(cost)}
            submitDisabled={locked || queueFull || cost === undefined}
            disabledReason={generateBlockedReason({ credits, cost, priceReason: price.ok ? undefined : price.reason, running })}
            submitting={submitting}
          >
            {family.acceptsStartImage && startMedia && <StartMediaCard item={startMedia} onRemove={() => setStartMedia(undefined)} disabled={submitting} />}
            {family.acceptsStartImage && !startMedia && (
              <StartImagePicker
                state={startImage}
                onError={setError}
                disabled={locked}
                hint={family.id === 'wan' ? 'Optional. With a start image Wan animates it (image-to-video).' : 'Optional. The clip starts from this frame.'}
              />
            )}
            <VideoOptions
              family={family}
              hasImage={hasImage}
              duration={duration}
              quality={quality}
              onDuration={setDuration}
              onQuality={setQuality}
              disabled={optionsLocked}
            />
            <ModelOptions model={model} value={options} onChange={setOptions} disabled={optionsLocked} skip={['duration', 'quality']} ignored={ignored} />
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
