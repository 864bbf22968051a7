/**
 * One video model's generator (spec section 2): credits box and Buy Credits, prompt, the family's options from the
 * catalog (start image, quality, duration), the error area, the active jobs with their progress, a Generate button
 * with the catalog's price; a loading modal while generating; the newest result and 'Previous Videos'.
 */
import { useCallback, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { Link } from 'react-router-dom';
import { MAX_PROMPT_LENGTH, VIDEO_FAMILIES, type PixverseQuality, type VideoFamily, type VideoFamilyId } from '../../../../contract/catalog';
import type { GenerateVideoRequest, GenerationResponse } from '../../../../contract/schemas';
import { Button } from '../../components/button';
import { TextAreaField } from '../../components/text-field';
import { api } from '../../lib/api-client';
import { useSession } from '../auth';
import { useCredits } from '../credits';
import { CreditsBox } from '../generation/credits-box';
import { ErrorLine, GeneratorShell, SidebarCard } from '../generation/generator-shell';
import { GenerationText, reasonOf } from '../generation/generation-messages';
import { jobTracker, useActiveJobs, useJobOutcomes, useJobStatuses, videoFamilyJobs, type JobOutcome } from '../generation/jobs';
import type { MediaItemView } from '../generation/media-api';
import { MediaGallery, type GalleryMessages } from '../generation/media-gallery';
import { VideoJobList } from '../generation/running-jobs';
import { uploadStartImage, useStartImage } from '../generation/start-image';
import { StartImagePicker } from '../generation/start-image-picker';
import { reveal } from '../generation/reveal';
import { useMediaList } from '../generation/use-media-list';
import { validateVideoRequest } from './validate-video-request';
import { GeneratingModal } from './generating-modal';
import { VideoOptions } from './video-options';
import { VideoPreview, type PreviewVideo } from './video-preview';
import { generateVideoLabel, modelFor, priceOf, qualityFor } from './video-pricing';

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

export function familyById(id: VideoFamilyId): VideoFamily {
  const family = VIDEO_FAMILIES.find((f) => f.id === id);
  if (!family || family.upcoming) throw new Error(`No video generator for ${id}`);
  return family;
}

export function VideoGeneratorPage({ familyId }: { familyId: VideoFamilyId }) {
  const family = familyById(familyId);
  const filter = videoFamilyJobs(family.id);
  const { user } = useSession();
  const credits = useCredits((s) => s.credits);
  const setCredits = useCredits((s) => s.setCredits);
  const [prompt, setPrompt] = useState('');
  const [duration, setDuration] = useState<number>(family.durations[0]!);
  const [quality, setQuality] = useState<PixverseQuality | undefined>(family.defaultQuality);
  const [error, setError] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState(false);
  const [modalHidden, setModalHidden] = useState(false);
  const [chosen, setChosen] = useState<PreviewVideo | undefined>();
  const [announcement, setAnnouncement] = useState('');
  const startImage = useStartImage(family.id === 'wan' ? 'wan' : 'pixverse', setError);
  const jobs = useActiveJobs(filter);
  const statuses = useJobStatuses();
  const media = useMediaList('video');
  const errorId = useId();
  const previewRef = useRef<HTMLDivElement>(null);
  const modalAction = useRef<HTMLButtonElement>(null);

  useJobOutcomes(
    filter,
    useCallback(
      (outcome: JobOutcome) => {
        if (outcome.status === 'succeeded') {
          setChosen({ url: outcome.url, prompt: outcome.job.prompt, mediaId: outcome.mediaId });
          setAnnouncement(`Video ready: ${outcome.job.prompt || GenerationText.noPrompt}`);
          reveal(previewRef.current);
          void media.refresh();
        } else {
          setError(outcome.error);
        }
      },
      [media.refresh],
    ),
  );

  const hasImage = Boolean(startImage.image);
  const price = priceOf(family, hasImage, duration, quality);
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
      const image = startImage.image ? await uploadStartImage(startImage.image, family.id === 'wan' ? 'wan' : 'pixverse') : undefined;
      const q = qualityFor(family, quality);
      const body: GenerateVideoRequest = {
        model: modelFor(family, Boolean(image)),
        prompt: text,
        duration,
        ...(image ? { image } : {}),
        ...(q ? { quality: q } : {}),
      };
      const res = await api.post<Partial<GenerationResponse> | undefined>('/api/generate-video', body);
      if (!res?.predictionId) {
        setError(GenerationText.noPredictionId);
        return;
      }
      if (typeof res.credits === 'number') setCredits(res.credits);
      jobTracker.add({
        predictionId: res.predictionId,
        prompt: text,
        createdAt: Date.now(),
        kind: 'video',
        model: body.model,
        options: { duration, ...(q ? { quality: q } : {}), ...(image ? { startImage: true } : {}) },
      });
    } catch (err) {
      setError(GenerationText.errorGeneratingVideo(reasonOf(err)));
    } finally {
      setSubmitting(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void generate();
  }

  function onPromptKeyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (event.key === 'Enter' && (event.metaKey || event.ctrlKey)) {
      event.preventDefault();
      void generate();
    }
  }

  const newest = media.items.find((i) => family.models.includes(i.model as never));
  const shown: PreviewVideo | undefined = chosen ?? (newest ? { url: newest.url, prompt: newest.prompt, mediaId: newest.id } : undefined);
  const shownItem = shown?.mediaId ? media.items.find((i) => i.id === shown.mediaId) : undefined;
  const onDeleted = (item: MediaItemView) => {
    if (chosen?.mediaId === item.id) setChosen(undefined);
  };

  return (
    <GeneratorShell
      title={family.name}
      description={DESCRIPTIONS[family.id]}
      eyebrow={
        <Link to="/video-generator" className="mb-2 inline-flex items-center gap-1 rounded-control text-sm text-ink-muted hover:text-ink">
          <span aria-hidden="true">←</span> All video models
        </Link>
      }
      sidebarLabel="Video settings"
      sidebar={
        <>
          <CreditsBox cost={cost ?? 0} />
          <SidebarCard>
            <form onSubmit={onSubmit} noValidate aria-describedby={errorId} className="flex flex-col gap-5">
              <TextAreaField
                label="Prompt"
                value={prompt}
                onChange={(e) => setPrompt(e.target.value)}
                onKeyDown={onPromptKeyDown}
                disabled={locked}
                maxLength={MAX_PROMPT_LENGTH}
                rows={5}
                placeholder="A paper boat drifting down a rainy street, slow dolly shot"
                hint={`${prompt.length}/${MAX_PROMPT_LENGTH} · Ctrl+Enter to generate`}
              />
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
              <VideoJobList jobs={jobs} statuses={statuses} />
              <div>
                <ErrorLine id={errorId} message={error} />
                <Button type="submit" size="lg" fullWidth disabled={locked || cost === undefined} loading={submitting}>
                  {generateVideoLabel(cost)}
                </Button>
              </div>
            </form>
          </SidebarCard>
        </>
      }
    >
      <div ref={previewRef}>
        <VideoPreview video={shown} item={shownItem} listLoading={media.status === 'loading'} onError={setError} />
      </div>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <MediaGallery
        title={GenerationText.previousVideos}
        list={media}
        messages={GALLERY_MESSAGES}
        onDeleted={onDeleted}
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
