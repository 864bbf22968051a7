/**
 * One video model's generator (spec section 2): credits box and Buy Credits, prompt, the family's options from the
 * catalog (start image, quality, duration), the error area, the active jobs with their progress, a Generate button
 * with the catalog's price; a loading modal while generating; the newest result and 'Previous Videos'.
 */
import { useRef, useState } from 'react';
import { Link } from 'react-router-dom';
import { videoFamily, type PixverseQuality, type VideoFamily, type VideoFamilyId } from '../../../../contract/catalog';
import { modelBySlug, priceOf as priceOfModel } from '../../../../contract/models';
import type { GenerateVideoRequest } from '../../../../contract/schemas';
import { useSession } from '../auth';
import { useCredits } from '../credits';
import { CreditsBox, type GalleryMessages, GenerationText, GeneratorForm, GeneratorShell, MediaGallery, ModelOptions, type OptionState, PreviewSlot, requestOptions, reasonOf, startGeneration, StartImagePicker, uploadStartImage, useActiveJobs, useJobStatuses, useMediaList, useResultPreview, useStartImage, videoFamilyJobs, VideoJobList } from '../generation';
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
  const [modalHidden, setModalHidden] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const startImage = useStartImage(family.id, setError);
  const jobs = useActiveJobs(filter);
  const statuses = useJobStatuses();
  const media = useMediaList('video');
  const modalAction = useRef<HTMLButtonElement>(null);
  const preview = useResultPreview({
    filter,
    media,
    newest: media.items.find((i) => family.models.includes(i.model as never)),
    onReady: (text) => setAnnouncement(`Video ready: ${text || GenerationText.noPrompt}`),
    onFailed: setError,
  });

  const hasImage = Boolean(startImage.image);
  const price = priceOfModel(model, { ...options, duration, quality: qualityFor(family, quality) });
  const cost = price.ok ? price.cost : undefined;
  const generating = submitting || jobs.length > 0;
  const canAfford = credits !== undefined && cost !== undefined && credits >= cost;
  const locked = generating || !canAfford;
  // Options stay open when the balance is short, so a cheaper combination can still be picked.
  const optionsLocked = generating || credits === undefined;

  async function generate() {
    if (generating || cost === undefined) return;
    const problem = validateVideoRequest({ prompt, signedIn: Boolean(user), credits, cost });
    if (problem) {
      setError(problem);
      return;
    }
    const text = prompt.trim();
    setError(undefined);
    setAnnouncement('');
    setModalHidden(false);
    setSubmitting(true);
    try {
      const image = startImage.image ? await uploadStartImage(startImage.image, family.id) : undefined;
      const q = qualityFor(family, quality);
      const body: GenerateVideoRequest = {
        model: modelFor(family, Boolean(image)),
        prompt: text,
        duration,
        ...(image ? { image } : {}),
        ...(q ? { quality: q } : {}),
        ...requestOptions(options),
      };
      const failure = await startGeneration(
        { route: 'generateVideo', body },
        { prompt: text, kind: 'video', model: body.model, options: { duration, ...(q ? { quality: q } : {}), ...(image ? { startImage: true } : {}) } },
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
            submitDisabled={locked || cost === undefined}
            submitting={submitting}
          >
            {family.acceptsStartImage && (
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
            <ModelOptions model={model} value={options} onChange={setOptions} disabled={optionsLocked} skip={['duration', 'quality']} />
            <VideoJobList jobs={jobs} statuses={statuses} />
          </GeneratorForm>
        </>
      }
    >
      <PreviewSlot slotRef={preview.ref} announcement={announcement}>
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
        open={generating && !modalHidden}
        submitting={submitting && jobs.length === 0}
        uploading={submitting && hasImage}
        jobs={jobs}
        statuses={statuses}
        onHide={() => setModalHidden(true)}
        actionRef={modalAction}
      />
    </GeneratorShell>
  );
}
