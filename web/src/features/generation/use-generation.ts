/**
 * The one generation hook: a generator's state for the registry entries its page offers (the chosen entry, prompt,
 * options, pictures), checked against what the entry declares, ordered through POST /api/generations and followed
 * through the job tracker (the followed-jobs store and the jobs' queries). Adding a model or an operation needs
 * nothing here.
 */
import { useState } from 'react';
import { MAX_ACTIVE_JOBS, START_IMAGE_PURPOSES } from '../../../../contract/catalog';
import { Messages } from '../../../../contract/errors';
import { priceOf, replicateModelOf, resolveOptions, type ImageInputId, type ModelDef, type OptionValue } from '../../../../contract/models';
import { MODEL_VIEWS, type ModelView } from '../../../../contract/models/view';
import { useSession } from '../auth';
import { useCredits } from '../credits';
import { GenerationText, reasonOf } from './generation-messages';
import { IGNORED_WITH_IMAGE, optionsIgnoredWithImage } from './ignored-options';
import { isAnyJob, jobsOf, useActiveJobs, useJobStatuses, type ActiveJob, type JobModels, type ModelFilter, type RunningStatus } from './jobs';
import type { MediaItemView } from './media-api';
import { requestOptions, type OptionState } from './model-options';
import { startGeneration } from './start-generation';
import { uploadStartImage, useStartImage, type StartImageState } from './start-image';

/** The words a page says where the spec gives each generator its own (the image page's and the video pages'). */
export interface GenerationTexts {
  enterPrompt: string;
  signIn: string;
  /** A request the server or the network refused. */
  failed: (reason: string) => string;
}

export interface GenerationDraft {
  prompt: string;
  signedIn: boolean;
  /** undefined while the balance is not known. */
  credits: number | undefined;
  /** The price of the chosen options. */
  cost: number;
  options: OptionState;
  /** The pictures given, by the entry's input ids. */
  given: ReadonlySet<ImageInputId>;
}

/**
 * A request's checks before calling the server, in the spec's order (prompt, signed in, credits), then the pictures the
 * entry declares: a required one missing, or pictures these options cannot take (the server's own words for both).
 */
export function checkGeneration(model: ModelDef, texts: GenerationTexts, draft: GenerationDraft): string | undefined {
  if (model.inputs.prompt?.required && draft.prompt.trim() === '') return texts.enterPrompt;
  if (!draft.signedIn) return texts.signIn;
  if (draft.credits === undefined || draft.credits < draft.cost) return GenerationText.notEnoughCredits(draft.cost);
  for (const [id, input] of Object.entries(model.inputs.images)) {
    if (input.required && !draft.given.has(id as ImageInputId)) return Messages.imageInputRequired(model.name, input.label, id);
  }
  const resolved = resolveOptions(model, requestOptions(draft.options), () => 0);
  if (!resolved.ok) return resolved.reason;
  return model.refuseImages?.(resolved.options, draft.given);
}

/** One picture input of the chosen entry: an upload, or one of the user's results (sent by its id, not uploaded again). */
export interface PictureState {
  upload: StartImageState;
  media: MediaItemView | undefined;
  setMedia: (item: MediaItemView | undefined) => void;
}

const PICTURE_INPUTS = ['startImage', 'endImage', 'image'] as const satisfies readonly ImageInputId[];

export const viewOf = (model: ModelDef): ModelView => MODEL_VIEWS.find((v) => v.id === model.slug)!;

/** The choices drawn as priced tiles: those the registry's price table spans (a clip's quality, duration), unless advanced. */
export function pricedChoices(model: ModelDef): string[] {
  const prices = viewOf(model).prices;
  return [prices?.rows?.id, prices?.columns?.id].filter((id): id is string => id !== undefined && model.options[id]?.advanced === false);
}

/** The upload's purpose (it sets the long side the server takes): the entry's own where it has one. */
const purposeOf = (model: ModelDef): string => (START_IMAGE_PURPOSES.includes(model.slug) ? model.slug : START_IMAGE_PURPOSES[0]);

export interface Generation {
  model: ModelDef;
  /** Choose another of the page's entries: its options start afresh. */
  chooseModel: (model: ModelDef) => void;
  prompt: string;
  setPrompt: (prompt: string) => void;
  options: OptionState;
  setOptions: (options: OptionState) => void;
  pictures: Readonly<Record<ImageInputId, PictureState>>;
  /** The choices shown as priced tiles. */
  tiles: string[];
  /** Options the request will not use with the pictures given, each with the reason shown beside it. */
  ignored: Readonly<Record<string, string>>;
  hasPicture: boolean;
  error: string | undefined;
  setError: (message: string | undefined) => void;
  submitting: boolean;
  /** The price of the chosen options, or why they cannot be ordered. */
  cost: number | undefined;
  priceReason: string | undefined;
  /** Short credits lock the prompt and Generate (the spec). */
  locked: boolean;
  /** Options stay open when the balance is short, so a cheaper combination can still be picked. */
  optionsLocked: boolean;
  queueFull: boolean;
  /** The balance, undefined while not known. */
  credits: number | undefined;
  /** Which jobs are the page's: those of the entries it offers. */
  filter: ModelFilter;
  /** The page's running jobs, every running job of the user's (the queue), and their statuses. */
  jobs: ActiveJob[];
  queue: ActiveJob[];
  statuses: Record<string, RunningStatus>;
  generate: () => Promise<void>;
}

export interface GenerationPlan {
  /** The entries the page offers, the default first. */
  models: readonly ModelDef[];
  /** Entries whose jobs the page shows beside its own (the image page: the viewer's edit, upscale and variation). */
  follows?: readonly JobModels[];
  texts: GenerationTexts;
  /** Generate passed its checks: the request is on its way. */
  onStart?: () => void;
}

/** A page's generator: its state, its checks, its order and its jobs. */
export function useGeneration({ models, follows = [], texts, onStart }: GenerationPlan): Generation {
  const { user } = useSession();
  const { credits } = useCredits();
  const [model, setModel] = useState(models[0]!);
  const [prompt, setPrompt] = useState('');
  const [options, setOptions] = useState<OptionState>({});
  const [error, setError] = useState<string | undefined>();
  const [submitting, setSubmitting] = useState(false);
  const purpose = purposeOf(model);
  const uploads = {
    startImage: useStartImage(purpose, setError),
    endImage: useStartImage(purpose, setError),
    image: useStartImage(purpose, setError),
  };
  const [media, setMediaOf] = useState<Partial<Record<ImageInputId, MediaItemView>>>({});
  const pictures = Object.fromEntries(
    PICTURE_INPUTS.map((id) => [id, { upload: uploads[id], media: media[id], setMedia: (item: MediaItemView | undefined) => setMediaOf((m) => ({ ...m, [id]: item })) }]),
  ) as Record<ImageInputId, PictureState>;
  const taken = PICTURE_INPUTS.filter((id) => model.inputs.images[id]);
  const given = new Set(taken.filter((id) => pictures[id].media || pictures[id].upload.image));
  const hasPicture = given.has('startImage') || given.has('image');

  const filter = jobsOf([...models.map(viewOf), ...follows]);
  const jobs = useActiveJobs(filter);
  const queue = useActiveJobs(isAnyJob);
  const statuses = useJobStatuses();

  const tiles = pricedChoices(model);
  const ignored: Record<string, string> = hasPicture ? Object.fromEntries(optionsIgnoredWithImage(model).map((id) => [id, IGNORED_WITH_IMAGE])) : {};
  const price = priceOf(model, options);
  const cost = price.ok ? price.cost : undefined;
  const locked = !(credits !== undefined && cost !== undefined && credits >= cost);
  const queueFull = queue.length >= MAX_ACTIVE_JOBS;

  async function generate() {
    if (submitting || cost === undefined) return;
    if (queueFull) {
      setError(Messages.tooManyActiveJobs(MAX_ACTIVE_JOBS));
      return;
    }
    const problem = checkGeneration(model, texts, { prompt, signedIn: Boolean(user), credits, cost, options, given });
    if (problem) {
      setError(problem);
      return;
    }
    const text = prompt.trim();
    setError(undefined);
    setSubmitting(true);
    onStart?.();
    try {
      const inputs: Partial<Record<ImageInputId, string>> = {};
      for (const id of given) {
        const { media: item, upload } = pictures[id];
        inputs[id] = item ? item.id : await uploadStartImage(upload.image!, purpose);
      }
      // An option the model does not read with these pictures is not asked for.
      const asked = requestOptions(Object.fromEntries(Object.entries(options).filter(([id]) => !(id in ignored))));
      // The tiles' values are sent as shown, defaults included: the order says what the button priced.
      const resolved = resolveOptions(model, asked, () => 0);
      const shown: Record<string, OptionValue> = resolved.ok ? Object.fromEntries(tiles.map((id) => [id, resolved.options[id]!])) : {};
      const failure = await startGeneration(
        { route: 'generations', body: { model: model.slug, prompt: text, options: { ...asked, ...shown }, ...(given.size > 0 ? { inputs } : {}) } },
        {
          prompt: text,
          kind: model.kind,
          model: replicateModelOf(model, asked, hasPicture) ?? model.slug,
          cost,
          ...(hasPicture || tiles.length > 0 ? { options: { ...shown, ...(hasPicture ? { startImage: true } : {}) } } : {}),
        },
      );
      if (failure) setError(failure);
    } catch (err) {
      setError(texts.failed(reasonOf(err)));
    } finally {
      setSubmitting(false);
    }
  }

  return {
    model,
    chooseModel: (next) => {
      setModel(next);
      setOptions({});
    },
    prompt,
    setPrompt,
    options,
    setOptions,
    pictures,
    tiles,
    ignored,
    hasPicture,
    error,
    setError,
    submitting,
    cost,
    priceReason: price.ok ? undefined : price.reason,
    locked,
    optionsLocked: submitting || credits === undefined,
    queueFull,
    credits,
    filter,
    jobs,
    queue,
    statuses,
    generate,
  };
}
