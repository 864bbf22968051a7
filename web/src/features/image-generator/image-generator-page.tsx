/**
 * /generator, the image generator (spec section 2): credits and Buy Credits, prompt, optional start image, the
 * error line, running jobs, 'Generate Image (1 Credit)'; the preview (the newest image unless one is chosen) with
 * the 'Generating...' overlay, and 'Previous Images'.
 */
import { useCallback, useId, useRef, useState, type FormEvent, type KeyboardEvent } from 'react';
import { IMAGE_COST, IMAGE_MODEL, MAX_PROMPT_LENGTH } from '../../../../contract/catalog';
import type { GenerationResponse } from '../../../../contract/schemas';
import { Button } from '../../components/button';
import { TextAreaField } from '../../components/text-field';
import { api } from '../../lib/api-client';
import { useSession } from '../auth';
import { useCredits } from '../credits';
import { CreditsBox } from '../generation/credits-box';
import { ErrorLine, GeneratorShell, SidebarCard } from '../generation/generator-shell';
import { GenerationText, reasonOf } from '../generation/generation-messages';
import { isImageJob, jobTracker, useActiveJobs, useJobOutcomes, type JobOutcome } from '../generation/jobs';
import type { MediaItemView } from '../generation/media-api';
import { MediaGallery, type GalleryMessages } from '../generation/media-gallery';
import { ImageJobList } from '../generation/running-jobs';
import { uploadStartImage, useStartImage } from '../generation/start-image';
import { StartImagePicker } from '../generation/start-image-picker';
import { reveal } from '../generation/reveal';
import { useMediaList } from '../generation/use-media-list';
import { ImagePreview, type PreviewImage } from './image-preview';
import { generateImageLabel, validateImageRequest } from './validate-image-request';

const GALLERY_MESSAGES: GalleryMessages = {
  loadFailed: () => GenerationText.failedToLoadImages,
  moreFailed: () => GenerationText.failedToLoadImages,
  deleteFailed: GenerationText.failedToDeletePrompt,
  empty: 'Your images will appear here.',
};

export function ImageGeneratorPage() {
  const { user } = useSession();
  const credits = useCredits((s) => s.credits);
  const setCredits = useCredits((s) => s.setCredits);
  const [prompt, setPrompt] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState(false);
  const [chosen, setChosen] = useState<PreviewImage | undefined>();
  const [announcement, setAnnouncement] = useState('');
  const startImage = useStartImage('image', setError);
  const jobs = useActiveJobs(isImageJob);
  const media = useMediaList('image');
  const errorId = useId();
  const previewRef = useRef<HTMLDivElement>(null);

  useJobOutcomes(
    isImageJob,
    useCallback(
      (outcome: JobOutcome) => {
        if (outcome.status === 'succeeded') {
          setChosen({ url: outcome.url, prompt: outcome.job.prompt, mediaId: outcome.mediaId });
          setAnnouncement(`Image ready: ${outcome.job.prompt}`);
          reveal(previewRef.current);
          void media.refresh();
        } else {
          setError(outcome.error);
          setAnnouncement('');
        }
      },
      [media.refresh],
    ),
  );

  const generating = submitting || jobs.length > 0;
  const canAfford = credits !== undefined && credits >= IMAGE_COST;
  const locked = generating || !canAfford;

  async function generate() {
    if (generating) return;
    const problem = validateImageRequest({ prompt, signedIn: Boolean(user), credits });
    if (problem) {
      setError(problem);
      return;
    }
    const text = prompt.trim();
    setError(undefined);
    setSubmitting(true);
    setAnnouncement('');
    try {
      const image = startImage.image ? await uploadStartImage(startImage.image, 'image') : undefined;
      const res = await api.post<Partial<GenerationResponse> | undefined>('/api/generate-image', { prompt: text, ...(image ? { image } : {}) });
      if (!res?.predictionId) {
        setError(GenerationText.noPredictionId);
        return;
      }
      if (typeof res.credits === 'number') setCredits(res.credits);
      jobTracker.add({
        predictionId: res.predictionId,
        prompt: text,
        createdAt: Date.now(),
        kind: 'image',
        model: IMAGE_MODEL.id,
        ...(image ? { options: { startImage: true } } : {}),
      });
    } catch (err) {
      setError(GenerationText.errorGeneratingImage(reasonOf(err)));
      setAnnouncement('');
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

  const newest = media.items[0];
  const shown: PreviewImage | undefined = chosen ?? (newest ? { url: newest.url, prompt: newest.prompt, mediaId: newest.id } : undefined);
  const shownItem = shown?.mediaId ? media.items.find((i) => i.id === shown.mediaId) : undefined;

  const onDeleted = (item: MediaItemView) => {
    if (chosen?.mediaId === item.id) setChosen(undefined);
  };

  return (
    <GeneratorShell
      title="Image Generator"
      description="Describe an image, or start from your own picture. Each image costs 1 credit."
      sidebarLabel="Image settings"
      sidebar={
        <>
          <CreditsBox cost={IMAGE_COST} />
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
                placeholder="A lighthouse on a cliff at dusk, cinematic lighting"
                hint={`${prompt.length}/${MAX_PROMPT_LENGTH} · Ctrl+Enter to generate`}
              />
              <StartImagePicker state={startImage} onError={setError} disabled={locked} hint="Optional. The image is guided by this picture." />
              <ImageJobList jobs={jobs} />
              <div>
                <ErrorLine id={errorId} message={error} />
                <Button type="submit" size="lg" fullWidth disabled={locked} loading={submitting}>
                  {generateImageLabel()}
                </Button>
              </div>
            </form>
          </SidebarCard>
        </>
      }
    >
      <div ref={previewRef}>
        <ImagePreview image={shown} item={shownItem} generating={generating} listLoading={media.status === 'loading'} onError={setError} />
      </div>
      <p aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <MediaGallery
        title={GenerationText.previousImages}
        list={media}
        messages={GALLERY_MESSAGES}
        onSelect={(item) => setChosen({ url: item.url, prompt: item.prompt, mediaId: item.id })}
        selectedId={shown?.mediaId}
        onDeleted={onDeleted}
        columns="images"
      />
    </GeneratorShell>
  );
}

export default ImageGeneratorPage;
