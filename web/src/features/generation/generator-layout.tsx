/**
 * The one generator layout, for the image page and every video model's page, drawn from the chosen registry entry:
 * credits and Buy Credits; the prompt; a picker for each picture the entry takes (start, end or source image); its
 * choices that set the price as priced tiles and its other options; the error line and Generate with the registry's
 * price; the running jobs, the preview and the page's previous results. A page says only what differs in words, which
 * entries it offers and how its results are shown.
 */
import { useRef, useState, type ComponentType, type ReactNode } from 'react';
import { modelOfReplicate, type ImageInputId, type ModelDef } from '../../../../contract/models';
import { STORAGE_KEYS, storedValue } from '../../lib/browser-storage';
import { api } from '../../lib/api-client';
import { generateLabel } from '../marketing';
import { CreditsBox } from './credits-box';
import { generateBlockedReason } from './generate-blocked';
import { GeneratingModal } from './generating-modal';
import { GeneratorForm } from './generator-form';
import { GeneratorShell } from './generator-shell';
import type { MediaItemView, MediaType } from './media-api';
import { MediaGallery, type GalleryMessages } from './media-gallery';
import { useMediaList } from './media-list';
import { ModelOptions } from './model-options';
import { ModelPicker } from './model-picker';
import { PreviewSlot } from './preview-slot';
import { PricedChoices } from './priced-choices';
import { reusedOptions } from './reuse-urls';
import { JobTiles } from './running-jobs';
import { StartImagePicker } from './start-image-picker';
import { StartMediaCard } from './start-media-card';
import { useGeneration, viewOf, type GenerationTexts } from './use-generation';
import type { ModelView } from '../../../../contract/models/view';
import { useResultPreview, type PreviewMedia } from './use-result-preview';
import { useReuseFromUrl } from './use-reuse';

/** What a page's preview component gets: the result shown, and whether one of the page's jobs runs. */
export interface GeneratorPreviewProps {
  shown: PreviewMedia | undefined;
  /** The gallery item shown, when it is loaded (for its download link). */
  item: MediaItemView | undefined;
  generating: boolean;
  listLoading: boolean;
  onError: (message: string) => void;
}

export interface GeneratorPage {
  /** The page's key for the result it keeps picked ('image', 'wan', ...). */
  id: string;
  /** The registry entries it offers, the default first; more than one gives a model picker. */
  models: readonly ModelDef[];
  /** Entries that work on the page's results (edit, upscale, variations): their jobs and results are shown here too. */
  follows?: readonly ModelView[];
  title: string;
  description: ReactNode;
  eyebrow?: ReactNode;
  /** Names the settings landmark, e.g. 'Image settings'. */
  sidebarLabel: string;
  placeholder: string;
  texts: GenerationTexts;
  /** The previous results listed: of a type, and of one entry where the page offers only it. */
  media: { type: MediaType; model?: string };
  gallery: { title: string; messages: GalleryMessages; columns: 'images' | 'videos'; pickable: boolean };
  /** What the screen reader hears when a result is ready, from its prompt. */
  readyText: (prompt: string) => string;
  /** The spec's loading window for a Generate pressed here (video), until the user sends jobs to the background. */
  loadingWindow: boolean;
  Preview: ComponentType<GeneratorPreviewProps>;
}

/** The option a result keeps each of its pictures' media id under, when the picture was one of the user's results. */
const MEDIA_ID_OPTION: Readonly<Record<ImageInputId, string>> = { startImage: 'startMediaId', endImage: 'endMediaId', image: 'sourceMediaId' };

export function GeneratorLayout({ page }: { page: GeneratorPage }) {
  const [announcement, setAnnouncement] = useState('');
  /** The window opens for a Generate pressed here, until the user sends jobs to the background: then never again. */
  const [modalWanted, setModalWanted] = useState(false);
  const [inBackground, setInBackground] = useState(() => storedValue(STORAGE_KEYS.jobsInBackground).get() === '1');
  const modalAction = useRef<HTMLButtonElement>(null);
  const g = useGeneration({
    models: page.models,
    texts: page.texts,
    ...(page.follows ? { follows: page.follows } : {}),
    onStart: () => {
      setAnnouncement('');
      setModalWanted(true);
    },
  });
  const { model, pictures, setError } = g;
  const view = viewOf(model);
  const media = useMediaList(page.media.type, page.media.model ? { model: page.media.model } : {});
  const made = (item: MediaItemView) => g.filter({ model: item.model });
  useReuseFromUrl({
    onReuse: (item, use) => {
      g.setPrompt(item.prompt);
      if (use !== 'settings') return;
      // Its own model's settings: a FLUX result reopens FLUX.
      const own = page.models.find((m) => m === modelOfReplicate(item.model)) ?? model;
      g.chooseModel(own);
      g.setOptions(reusedOptions(own, item.options));
      // Its pictures (a start and an end frame), where they were the user's images that still exist.
      for (const id of Object.keys(own.inputs.images) as ImageInputId[]) {
        const mediaId = item.options[MEDIA_ID_OPTION[id]];
        if (typeof mediaId === 'string') api.getMedia({ params: { id: mediaId } }).then(pictures[id].setMedia, () => undefined);
      }
    },
    onStartMedia: (item) => {
      if (model.inputs.images.startImage) pictures.startImage.setMedia(item);
    },
    onError: setError,
  });
  const preview = useResultPreview({
    generator: page.id,
    filter: g.filter,
    media,
    newest: media.items.find(made),
    onReady: (text) => setAnnouncement(page.readyText(text)),
    onFailed: (message) => {
      setError(message);
      setAnnouncement('');
    },
  });
  const generating = g.submitting || g.jobs.length > 0;
  const { Preview } = page;

  return (
    <GeneratorShell
      title={page.title}
      description={page.description}
      eyebrow={page.eyebrow}
      sidebarLabel={page.sidebarLabel}
      sidebar={
        <>
          <CreditsBox cost={g.cost ?? 0} />
          <GeneratorForm
            prompt={g.prompt}
            onPromptChange={g.setPrompt}
            placeholder={page.placeholder}
            onGenerate={() => void g.generate()}
            locked={g.locked}
            error={g.error}
            submitLabel={generateLabel(model.kind, g.cost, Number(g.options.count ?? 1))}
            submitDisabled={g.locked || g.queueFull || g.cost === undefined}
            disabledReason={generateBlockedReason({ credits: g.credits, cost: g.cost, priceReason: g.priceReason, running: g.queue.length })}
            submitting={g.submitting}
          >
            {page.models.length > 1 && <ModelPicker models={page.models} value={model} disabled={g.submitting} onChange={g.chooseModel} />}
            {view.inputs.images.map((input) => {
              const picture = pictures[input.id];
              return picture.media ? (
                <StartMediaCard key={input.id} label={input.label} item={picture.media} onRemove={() => picture.setMedia(undefined)} disabled={g.submitting} />
              ) : (
                <StartImagePicker key={input.id} label={input.label} required={input.required} state={picture.upload} onError={setError} disabled={g.locked} hint={input.hint} />
              );
            })}
            <PricedChoices model={model} ids={g.tiles} value={g.options} onChange={g.setOptions} disabled={g.optionsLocked} />
            <ModelOptions model={model} value={g.options} onChange={g.setOptions} disabled={g.optionsLocked} skip={g.tiles} ignored={g.ignored} />
          </GeneratorForm>
        </>
      }
    >
      <JobTiles jobs={g.jobs} queue={g.queue} statuses={g.statuses} onError={setError} />
      <PreviewSlot slotRef={preview.ref} announcement={announcement} failure={preview.failure} onDismissFailure={preview.dismissFailure} canceled={preview.canceled} onDismissCanceled={preview.dismissCanceled}>
        <Preview shown={preview.shown} item={preview.shownItem} generating={generating} listLoading={media.status === 'loading'} onError={setError} />
      </PreviewSlot>
      <MediaGallery
        title={page.gallery.title}
        list={media}
        messages={page.gallery.messages}
        {...(page.gallery.pickable ? { onSelect: preview.choose, selectedId: preview.shown?.mediaId } : {})}
        onDeleted={preview.onDeleted}
        columns={page.gallery.columns}
      />
      {page.loadingWindow && (
        <GeneratingModal
          open={generating && modalWanted && !inBackground}
          submitting={g.submitting && g.jobs.length === 0}
          uploading={g.submitting && g.hasPicture}
          jobs={g.jobs}
          statuses={g.statuses}
          onHide={() => {
            storedValue(STORAGE_KEYS.jobsInBackground).set('1');
            setInBackground(true);
            setModalWanted(false);
          }}
          actionRef={modalAction}
        />
      )}
    </GeneratorShell>
  );
}
